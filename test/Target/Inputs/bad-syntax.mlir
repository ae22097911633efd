// Invalid LLVM dialect: an i32 value used as i64.

llvm.func @k(%a: i32) attributes {nvvm.kernel} {
  %0 = llvm.add %a, %a : i64
  llvm.return
}
