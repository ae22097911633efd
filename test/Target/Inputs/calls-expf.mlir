// A kernel that needs libdevice.

llvm.func @__nv_expf(f32) -> f32
llvm.func @exp_kernel(%x: f32, %out: !llvm.ptr<1>) attributes {nvvm.kernel} {
  %0 = llvm.call @__nv_expf(%x) : (f32) -> f32
  llvm.store %0, %out : f32, !llvm.ptr<1>
  llvm.return
}
