"""A small recursive-descent parser for the expression language (never ``eval``).

Grammar (C/HLSL precedence, lowest first)::

    expr     := equality ('?' expr ':' expr)?          right-associative select
    equality := relation (('==' | '!=') relation)*
    relation := sum (('<' | '<=' | '>' | '>=') sum)*
    sum      := product (('+' | '-') product)*
    product  := unary (('*' | '/') unary)*
    unary    := ('-' | '+') unary | postfix
    postfix  := primary ('.' NAME)*                      swizzles only
    primary  := NUMBER | NAME | NAME '(' args ')' | '(' expr ')'

Only names and calls get here; what a name means (intrinsic, constructor, variable) is
decided when the tree is lowered (:mod:`.lower`), where unknown names are refused.
"""

from __future__ import annotations

import keyword

from .errors import ExprError
from .lexer import Token, iter_tokens
from .nodes import Binary, Call, Node, Num, Select, Swizzle, Unary, Var

__all__ = ["parse_expr", "variables_in", "MAX_LENGTH", "MAX_DEPTH", "MAX_HEIGHT"]

#: Longest expression text accepted (a guard against pasted files, not a language limit).
MAX_LENGTH = 10_000
#: Deepest bracket/unary nesting accepted (keeps recursion far from Python's limit).
MAX_DEPTH = 64
#: Tallest syntax tree accepted (a chain of 200 additions is still fine).
MAX_HEIGHT = 256
_RESERVED = set(keyword.kwlist) | {"print", "exec", "eval", "open", "import", "getattr"}


class _Parser:
    def __init__(self, text: str) -> None:
        self._tokens = iter_tokens(text)
        self._tok = next(self._tokens)
        self.depth = 0

    @property
    def tok(self) -> Token:
        return self._tok

    def next(self) -> Token:
        t = self._tok
        if t.kind != "end":
            self._tok = next(self._tokens)
        return t

    def at(self, *texts: str) -> bool:
        t = self.tok
        return t.kind == "op" and t.text in texts

    def expect(self, text: str, what: str) -> Token:
        if not self.at(text):
            self.fail(f"expected '{text}' {what}")
        return self.next()

    def fail(self, message: str) -> None:
        t = self.tok
        if t.kind == "end":
            raise ExprError(f"{message}, but the expression ends here", t.pos)
        raise ExprError(f"{message}, found '{t.text}'", t.pos, t.end)

    # -- grammar ------------------------------------------------------------------------
    def expr(self) -> Node:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ExprError(f"expression nested deeper than {MAX_DEPTH} levels", self.tok.pos)
        cond = self.binary(0)
        if self.at("?"):
            self.next()
            a = self.expr()
            self.expect(":", "between the two choices of ?:")
            b = self.expr()
            cond = Select(cond.pos, b.end, cond, a, b)
        self.depth -= 1
        return cond

    _LEVELS = (("==", "!="), ("<", "<=", ">", ">="), ("+", "-"), ("*", "/"))

    def binary(self, level: int) -> Node:
        if level == len(self._LEVELS):
            return self.unary()
        left = self.binary(level + 1)
        while self.at(*self._LEVELS[level]):
            op = self.next()
            right = self.binary(level + 1)
            left = Binary(left.pos, right.end, op.text, left, right, op.pos)
        return left

    def unary(self) -> Node:
        if self.at("-", "+"):
            op = self.next()
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise ExprError(f"expression nested deeper than {MAX_DEPTH} levels", op.pos)
            operand = self.unary()
            self.depth -= 1
            return Unary(op.pos, operand.end, op.text, operand)
        return self.postfix()

    def postfix(self) -> Node:
        node = self.primary()
        while self.at("."):
            dot = self.next()
            t = self.tok
            if t.kind != "name":
                raise ExprError("expected a swizzle (x, y, z, w or r, g, b, a) after '.'",
                                t.pos if t.kind != "end" else dot.pos, t.end)
            self.next()
            node = Swizzle(node.pos, t.end, node, t.text, t.pos)
        if self.at("("):
            t = self.tok
            raise ExprError("only intrinsic names can be called", t.pos)
        return node

    def primary(self) -> Node:
        t = self.tok
        if t.kind == "num":
            self.next()
            return Num(t.pos, t.end, t.text)
        if t.kind == "name":
            self.next()
            if t.text in _RESERVED:
                raise ExprError(f"'{t.text}' is not part of the expression language", t.pos, t.end)
            if t.text.startswith("__"):
                raise ExprError(f"names starting with '__' are not allowed ('{t.text}')",
                                t.pos, t.end)
            if self.at("("):
                return self.call(t)
            return Var(t.pos, t.end, t.text)
        if self.at("("):
            self.next()
            inner = self.expr()
            close = self.expect(")", "to close '('")
            # keep the parentheses in the span (error carets cover what the user wrote)
            return _respan(inner, t.pos, close.end)
        self.fail("expected a number, a name or '('")
        raise AssertionError  # unreachable: fail raises

    def call(self, name: Token) -> Node:
        self.next()  # '('
        args: list[Node] = []
        if not self.at(")"):
            while True:
                args.append(self.expr())
                if self.at(","):
                    self.next()
                    continue
                break
        close = self.expect(")", f"to close the call of {name.text}")
        return Call(name.pos, close.end, name.text, tuple(args))


def _respan(node: Node, pos: int, end: int) -> Node:
    """The same node with the span of its parentheses (frozen dataclasses: rebuild)."""
    fields = dict(node.__dict__)
    fields["pos"], fields["end"] = pos, end
    return type(node)(**fields)


def parse_expr(text: str) -> Node:
    """Parse ``text`` into a syntax tree.

    Raises
    ------
    ExprError
        Syntax errors, foreign constructs (strings, brackets, lambdas, keywords,
        ``__dunder__`` names, attribute access other than swizzles), with position.
    """
    if not isinstance(text, str):
        raise ExprError(f"an expression is text, got {type(text).__name__}", 0)
    if len(text) > MAX_LENGTH:
        raise ExprError(f"expression longer than {MAX_LENGTH} characters", MAX_LENGTH)
    if not text.strip():
        raise ExprError("the expression is empty", 0)
    p = _Parser(text)
    node = p.expr()
    if p.tok.kind != "end":
        t = p.tok
        what = "a ')' without '('" if t.text == ")" else f"'{t.text}'"
        raise ExprError(f"unexpected {what} after a complete expression", t.pos, t.end)
    _check_height(node)
    return node


def _check_height(root: Node) -> None:
    """Refuse trees taller than MAX_HEIGHT (iteratively: the check itself cannot recurse)."""
    stack = [(root, 1)]
    while stack:
        node, h = stack.pop()
        if h > MAX_HEIGHT:
            raise ExprError(f"expression nested deeper than {MAX_HEIGHT} operations",
                            node.pos, node.end)
        for child in _children(node):
            stack.append((child, h + 1))


def _children(node: Node) -> tuple[Node, ...]:
    if isinstance(node, Binary):
        return (node.left, node.right)
    if isinstance(node, Unary):
        return (node.operand,)
    if isinstance(node, Select):
        return (node.cond, node.a, node.b)
    if isinstance(node, Swizzle):
        return (node.base,)
    if isinstance(node, Call):
        return node.args
    return ()


def variables_in(text: str) -> list[str]:
    """Names the expression reads as variables, in order of first appearance (intrinsic
    and constructor names excluded); raises ExprError like :func:`parse_expr`."""
    from .intrinsics import CONSTRUCTORS, INTRINSICS  # noqa: PLC0415

    found: dict[int, str] = {}
    stack = [parse_expr(text)]
    while stack:
        node = stack.pop()
        if isinstance(node, Var) and node.name not in INTRINSICS and node.name not in CONSTRUCTORS:
            found.setdefault(node.pos, node.name)
        stack.extend(_children(node))
    out: list[str] = []
    for _, name in sorted(found.items()):
        if name not in out:
            out.append(name)
    return out
