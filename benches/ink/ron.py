"""A small RON reader, enough for the scenes: structs and enum variants as
(name, {field: value}) or (name, [values]), lists, maps, strings, numbers."""


class Node:
    """`Name(...)` or `(...)`: a struct's fields or a variant's arguments."""

    def __init__(self, name, fields, args):
        self.name, self.fields, self.args = name, fields, args

    def get(self, key, default=None):
        return self.fields.get(key, default)

    def __repr__(self):
        inner = self.args if self.args else self.fields
        return f"{self.name or ''}({inner!r})"


class Reader:
    def __init__(self, text):
        self.s, self.i = text, 0

    def ws(self):
        s = self.s
        while self.i < len(s):
            c = s[self.i]
            if c in " \t\r\n,":
                self.i += 1
            elif s.startswith("//", self.i):
                j = s.find("\n", self.i)
                self.i = len(s) if j < 0 else j
            elif s.startswith("/*", self.i):
                self.i = s.index("*/", self.i) + 2
            elif s.startswith("#!", self.i):
                self.i = s.index("]", self.i) + 1
            else:
                return

    def peek(self):
        self.ws()
        return self.s[self.i] if self.i < len(self.s) else ""

    def eat(self, c):
        if self.peek() != c:
            raise ValueError(f"expected {c!r} at {self.i}: {self.s[self.i:self.i + 40]!r}")
        self.i += 1

    def ident(self):
        self.ws()
        j = self.i
        while j < len(self.s) and (self.s[j].isalnum() or self.s[j] in "_-."):
            j += 1
        word, self.i = self.s[self.i:j], j
        return word

    def string(self):
        self.eat('"')
        out, s = [], self.s
        while s[self.i] != '"':
            c = s[self.i]
            if c == "\\":
                n = s[self.i + 1]
                if n == "u":
                    j = s.index("}", self.i)
                    out.append(chr(int(s[self.i + 3:j], 16)))
                    self.i = j + 1
                    continue
                out.append({"n": "\n", "t": "\t", "r": "\r"}.get(n, n))
                self.i += 2
            else:
                out.append(c)
                self.i += 1
        self.i += 1
        return "".join(out)

    def value(self):
        c = self.peek()
        if c == '"':
            return self.string()
        if c == "[":
            self.eat("[")
            items = []
            while self.peek() != "]":
                items.append(self.value())
            self.eat("]")
            return items
        if c == "{":
            self.eat("{")
            m = {}
            while self.peek() != "}":
                k = self.value()
                self.eat(":")
                m[k] = self.value()
            self.eat("}")
            return m
        if c == "(":
            return self.parens(None)
        word = self.ident()
        if not word:
            raise ValueError(f"unexpected {self.s[self.i:self.i + 40]!r}")
        if word[0].isdigit() or word[0] in "-.":
            return float(word) if any(ch in word for ch in ".eE") else int(word)
        if word in ("true", "false"):
            return word == "true"
        if self.peek() == "(":
            return self.parens(word)
        return Node(word, {}, [])

    def parens(self, name):
        self.eat("(")
        fields, args = {}, []
        while self.peek() != ")":
            save = self.i
            word = self.ident()
            if word and self.peek() == ":" and not word[0].isdigit():
                self.eat(":")
                fields[word] = self.value()
            else:
                self.i = save
                args.append(self.value())
        self.eat(")")
        return Node(name, fields, args)


def load(path):
    with open(path, encoding="utf-8") as f:
        return Reader(f.read()).value()
