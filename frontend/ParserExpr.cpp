//===- ParserExpr.cpp - Expressions of the .tile parser -------------------===//
//
// Python's expression grammar with its precedence: conditional expressions,
// `or`/`and`/`not`, comparisons, bitwise operators, shifts, arithmetic,
// unary operators, `**`, and the postfix forms (calls with keyword
// arguments, attributes, subscripts), tuples and lists.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Parser.h"

#include "llvm/ADT/STLExtras.h"

using namespace tilec;
using namespace tilec::ast;

/// tuple_or_expr := expr (',' expr)* [',']
ExprPtr Parser::parseTupleOrExpr() {
  SourceLoc loc = tok().loc;
  ExprPtr first = parseExpr();
  if (!first || !tok().is(TokKind::Comma))
    return first;
  auto tuple = std::make_unique<TupleExpr>(loc, /*isList=*/false);
  tuple->elements.push_back(std::move(first));
  while (consumeIf(TokKind::Comma)) {
    if (tok().is(TokKind::Newline) || tok().is(TokKind::Equal) ||
        tok().is(TokKind::Semi))
      break;
    ExprPtr el = parseExpr();
    if (!el)
      return nullptr;
    tuple->elements.push_back(std::move(el));
  }
  return tuple;
}

/// expr := or_test ['if' or_test 'else' expr]
ExprPtr Parser::parseExpr() {
  // Brackets, call arguments and subscripts all come back here.
  NestingScope scope(*this);
  if (!scope.ok())
    return nullptr;
  ExprPtr value = parseOr();
  if (!value || !tok().is(TokKind::kw_if))
    return value;
  SourceLoc loc = tok().loc;
  consume();
  ExprPtr cond = parseOr();
  if (!cond)
    return nullptr;
  if (!expect(TokKind::kw_else, "'else' in conditional expression"))
    return nullptr;
  ExprPtr other = parseExpr();
  if (!other)
    return nullptr;
  return std::make_unique<TernaryExpr>(loc, std::move(value), std::move(cond),
                                       std::move(other));
}

/// or_test := and_test ('or' and_test)*
ExprPtr Parser::parseOr() {
  return parseLeftAssociative(&Parser::parseAnd,
                              {{TokKind::kw_or, BinaryOp::Or}});
}

/// and_test := not_test ('and' not_test)*
ExprPtr Parser::parseAnd() {
  return parseLeftAssociative(&Parser::parseNot,
                              {{TokKind::kw_and, BinaryOp::And}});
}

/// not_test := 'not' not_test | comparison
ExprPtr Parser::parseNot() {
  if (!tok().is(TokKind::kw_not))
    return parseComparison();
  NestingScope scope(*this);
  if (!scope.ok())
    return nullptr;
  SourceLoc loc = tok().loc;
  consume();
  ExprPtr operand = parseNot();
  if (!operand)
    return nullptr;
  return std::make_unique<UnaryExpr>(loc, UnaryOp::Not, std::move(operand));
}

/// comparison := bitor [compop bitor]
/// compop := '==' | '!=' | '<' | '<=' | '>' | '>=' | 'is' ['not']
/// (chained comparisons such as `a < b < c` are rejected)
ExprPtr Parser::parseComparison() {
  ExprPtr lhs = parseBitOr();
  if (!lhs)
    return nullptr;
  bool seen = false;
  while (true) {
    std::optional<BinaryOp> op;
    switch (tok().kind) {
    case TokKind::EqEq:
      op = BinaryOp::Eq;
      break;
    case TokKind::NotEq:
      op = BinaryOp::Ne;
      break;
    case TokKind::Less:
      op = BinaryOp::Lt;
      break;
    case TokKind::LessEq:
      op = BinaryOp::Le;
      break;
    case TokKind::Greater:
      op = BinaryOp::Gt;
      break;
    case TokKind::GreaterEq:
      op = BinaryOp::Ge;
      break;
    case TokKind::kw_is:
      op = BinaryOp::Is;
      break;
    case TokKind::kw_in:
      diags.error(tok().loc, "the 'in' operator is not supported");
      return nullptr;
    case TokKind::kw_not:
      if (peekTok().is(TokKind::kw_in)) {
        diags.error(tok().loc, "the 'not in' operator is not supported");
        return nullptr;
      }
      break;
    default:
      break;
    }
    if (!op)
      return lhs;
    SourceLoc loc = tok().loc;
    if (seen) {
      diags.error(loc, "chained comparisons are not supported; combine them "
                       "with '&' (e.g. (a < b) & (b < c))");
      return nullptr;
    }
    seen = true;
    consume();
    if (*op == BinaryOp::Is && consumeIf(TokKind::kw_not))
      op = BinaryOp::IsNot;
    ExprPtr rhs = parseBitOr();
    if (!rhs)
      return nullptr;
    lhs =
        std::make_unique<BinaryExpr>(loc, *op, std::move(lhs), std::move(rhs));
  }
}

ExprPtr Parser::parseLeftAssociative(
    ExprPtr (Parser::*parseOperand)(),
    std::initializer_list<std::pair<TokKind, BinaryOp>> operators) {
  ExprPtr lhs = (this->*parseOperand)();
  while (lhs) {
    const auto *it = llvm::find_if(
        operators, [&](const auto &entry) { return tok().is(entry.first); });
    if (it == operators.end())
      break;
    SourceLoc loc = tok().loc;
    consume();
    ExprPtr rhs = (this->*parseOperand)();
    if (!rhs)
      return nullptr;
    lhs = std::make_unique<BinaryExpr>(loc, it->second, std::move(lhs),
                                       std::move(rhs));
  }
  return lhs;
}

/// bitor := bitxor ('|' bitxor)*
ExprPtr Parser::parseBitOr() {
  return parseLeftAssociative(&Parser::parseBitXor,
                              {{TokKind::Pipe, BinaryOp::BitOr}});
}

/// bitxor := bitand ('^' bitand)*
ExprPtr Parser::parseBitXor() {
  return parseLeftAssociative(&Parser::parseBitAnd,
                              {{TokKind::Caret, BinaryOp::BitXor}});
}

/// bitand := shift ('&' shift)*
ExprPtr Parser::parseBitAnd() {
  return parseLeftAssociative(&Parser::parseShift,
                              {{TokKind::Amp, BinaryOp::BitAnd}});
}

/// shift := arith (('<<' | '>>') arith)*
ExprPtr Parser::parseShift() {
  return parseLeftAssociative(
      &Parser::parseArith,
      {{TokKind::Shl, BinaryOp::Shl}, {TokKind::Shr, BinaryOp::Shr}});
}

/// arith := term (('+' | '-') term)*
ExprPtr Parser::parseArith() {
  return parseLeftAssociative(
      &Parser::parseTerm,
      {{TokKind::Plus, BinaryOp::Add}, {TokKind::Minus, BinaryOp::Sub}});
}

/// term := factor (('*' | '/' | '//' | '%' | '@') factor)*
ExprPtr Parser::parseTerm() {
  return parseLeftAssociative(&Parser::parseFactor,
                              {{TokKind::Star, BinaryOp::Mul},
                               {TokKind::Slash, BinaryOp::Div},
                               {TokKind::DoubleSlash, BinaryOp::FloorDiv},
                               {TokKind::Percent, BinaryOp::Mod},
                               {TokKind::At, BinaryOp::MatMul}});
}

/// factor := ('-' | '+' | '~') factor | power
ExprPtr Parser::parseFactor() {
  std::optional<UnaryOp> op;
  if (tok().is(TokKind::Minus))
    op = UnaryOp::Neg;
  else if (tok().is(TokKind::Plus))
    op = UnaryOp::Pos;
  else if (tok().is(TokKind::Tilde))
    op = UnaryOp::Invert;
  if (!op)
    return parsePower();
  NestingScope scope(*this);
  if (!scope.ok())
    return nullptr;
  SourceLoc loc = tok().loc;
  consume();
  ExprPtr operand = parseFactor();
  if (!operand)
    return nullptr;
  return std::make_unique<UnaryExpr>(loc, *op, std::move(operand));
}

/// power := postfix ['**' factor]
ExprPtr Parser::parsePower() {
  ExprPtr base = parsePostfix();
  if (!base || !tok().is(TokKind::DoubleStar))
    return base;
  NestingScope scope(*this);
  if (!scope.ok())
    return nullptr;
  SourceLoc loc = tok().loc;
  consume();
  ExprPtr exponent = parseFactor();
  if (!exponent)
    return nullptr;
  return std::make_unique<BinaryExpr>(loc, BinaryOp::Pow, std::move(base),
                                      std::move(exponent));
}

/// postfix := atom trailer*
/// trailer := '(' [args] ')' | '[' index (',' index)* ']' | '.' NAME
ExprPtr Parser::parsePostfix() {
  ExprPtr expr = parseAtom();
  while (expr) {
    if (tok().is(TokKind::LParen)) {
      SourceLoc loc = expr->getLoc();
      consume();
      auto call = std::make_unique<CallExpr>(loc, std::move(expr));
      if (auto *name = llvm::dyn_cast<NameExpr>(call->callee.get());
          name && currentFunction)
        currentFunction->calledNames.push_back(name->name);
      if (!parseCallArgs(*call))
        return nullptr;
      expr = std::move(call);
    } else if (tok().is(TokKind::LSquare)) {
      SourceLoc loc = tok().loc;
      consume();
      auto sub = std::make_unique<SubscriptExpr>(loc, std::move(expr));
      while (!tok().is(TokKind::RSquare)) {
        ExprPtr index = parseSubscriptIndex();
        if (!index)
          return nullptr;
        sub->indices.push_back(std::move(index));
        if (!consumeIf(TokKind::Comma))
          break;
      }
      if (!expect(TokKind::RSquare, "']' or ','"))
        return nullptr;
      if (sub->indices.empty()) {
        diags.error(loc, "empty subscript");
        return nullptr;
      }
      expr = std::move(sub);
    } else if (tok().is(TokKind::Dot)) {
      consume();
      if (!tok().is(TokKind::Identifier)) {
        errorExpected("attribute name after '.'");
        return nullptr;
      }
      SourceLoc loc = expr->getLoc();
      expr = std::make_unique<AttributeExpr>(loc, std::move(expr),
                                             tok().spelling.str(), tok().loc);
      consume();
    } else {
      break;
    }
  }
  return expr;
}

/// args := arg (',' arg)* [',']
/// arg  := expr | NAME '=' expr
bool Parser::parseCallArgs(CallExpr &call) {
  while (!tok().is(TokKind::RParen)) {
    if (tok().is(TokKind::Star) || tok().is(TokKind::DoubleStar)) {
      diags.error(tok().loc, "argument unpacking ('*', '**') is not "
                             "supported");
      return false;
    }
    if (tok().is(TokKind::Identifier) && peekTok().is(TokKind::Equal)) {
      KeywordArg kw;
      kw.name = tok().spelling.str();
      kw.loc = tok().loc;
      consume();
      consume(); // '='
      for (const KeywordArg &prev : call.kwargs)
        if (prev.name == kw.name) {
          diags.error(kw.loc, "keyword argument '" + kw.name +
                                  "' given more than once");
          return false;
        }
      kw.value = parseExpr();
      if (!kw.value)
        return false;
      call.kwargs.push_back(std::move(kw));
    } else {
      SourceLoc loc = tok().loc;
      ExprPtr arg = parseExpr();
      if (!arg)
        return false;
      if (!call.kwargs.empty()) {
        diags.error(loc, "positional argument follows keyword argument");
        return false;
      }
      call.args.push_back(std::move(arg));
    }
    if (!consumeIf(TokKind::Comma))
      break;
  }
  return expect(TokKind::RParen, "')' or ','");
}

/// index := expr | [expr] ':' [expr] [':' [expr]]
ExprPtr Parser::parseSubscriptIndex() {
  SourceLoc loc = tok().loc;
  ExprPtr lower;
  if (!tok().is(TokKind::Colon)) {
    lower = parseExpr();
    if (!lower || !tok().is(TokKind::Colon))
      return lower;
  }
  consume(); // ':'
  auto slice = std::make_unique<SliceExpr>(loc);
  slice->lower = std::move(lower);
  auto atEnd = [&] {
    return tok().is(TokKind::Comma) || tok().is(TokKind::RSquare) ||
           tok().is(TokKind::Colon);
  };
  if (!atEnd() && !(slice->upper = parseExpr()))
    return nullptr;
  if (consumeIf(TokKind::Colon) && !atEnd() && !(slice->step = parseExpr()))
    return nullptr;
  return slice;
}

/// atom := NAME | INTEGER | FLOAT | STRING+ | 'True' | 'False' | 'None'
///       | '(' [tuple_or_expr] ')' | '[' [expr (',' expr)* [',']] ']'
ExprPtr Parser::parseAtom() {
  const Token &t = tok();
  SourceLoc loc = t.loc;
  switch (t.kind) {
  case TokKind::Identifier: {
    auto e = std::make_unique<NameExpr>(loc, t.spelling.str());
    consume();
    return e;
  }
  case TokKind::Integer: {
    auto e = std::make_unique<IntLiteral>(loc, t.intValue);
    consume();
    return e;
  }
  case TokKind::Float: {
    auto e = std::make_unique<FloatLiteral>(loc, t.floatValue);
    consume();
    return e;
  }
  case TokKind::String: {
    std::string value;
    while (tok().is(TokKind::String)) {
      value += tok().stringValue;
      consume();
    }
    return std::make_unique<StringLiteral>(loc, std::move(value));
  }
  case TokKind::kw_True:
  case TokKind::kw_False: {
    auto e = std::make_unique<BoolLiteral>(loc, t.is(TokKind::kw_True));
    consume();
    return e;
  }
  case TokKind::kw_None:
    consume();
    return std::make_unique<NoneLiteral>(loc);
  case TokKind::LParen:
    return parseParenOrTuple();
  case TokKind::LSquare:
    return parseList();
  case TokKind::LBrace:
    diags.error(loc, "dictionaries and sets are not supported");
    return nullptr;
  case TokKind::kw_unsupported:
    diags.error(loc, "'" + t.spelling + "' is not supported");
    return nullptr;
  default:
    errorExpected("an expression");
    return nullptr;
  }
}

/// paren := '(' ')' | '(' expr ')' | '(' expr ',' [expr (',' expr)*] [','] ')'
ExprPtr Parser::parseParenOrTuple() {
  SourceLoc loc = tok().loc;
  consume(); // '('
  if (consumeIf(TokKind::RParen))
    return std::make_unique<TupleExpr>(loc, /*isList=*/false);
  ExprPtr first = parseExpr();
  if (!first)
    return nullptr;
  if (consumeIf(TokKind::RParen))
    return first;
  if (!tok().is(TokKind::Comma)) {
    errorExpected("')' or ','");
    return nullptr;
  }
  auto tuple = std::make_unique<TupleExpr>(loc, /*isList=*/false);
  tuple->elements.push_back(std::move(first));
  while (consumeIf(TokKind::Comma) && !tok().is(TokKind::RParen)) {
    ExprPtr el = parseExpr();
    if (!el)
      return nullptr;
    tuple->elements.push_back(std::move(el));
  }
  if (!expect(TokKind::RParen, "')' or ','"))
    return nullptr;
  return tuple;
}

/// list := '[' [expr (',' expr)* [',']] ']'
ExprPtr Parser::parseList() {
  SourceLoc loc = tok().loc;
  consume(); // '['
  auto list = std::make_unique<TupleExpr>(loc, /*isList=*/true);
  while (!tok().is(TokKind::RSquare)) {
    ExprPtr el = parseExpr();
    if (!el)
      return nullptr;
    if (tok().is(TokKind::kw_for)) {
      diags.error(tok().loc, "list comprehensions are not supported");
      return nullptr;
    }
    list->elements.push_back(std::move(el));
    if (!consumeIf(TokKind::Comma))
      break;
  }
  if (!expect(TokKind::RSquare, "']' or ','"))
    return nullptr;
  return list;
}
