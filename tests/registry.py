"""The test list each tests/*_tests.py module builds: `@add(name)` registers
a check (a function returning (passed, log)) under PREFIX/name."""


def registry(prefix):
    tests = []

    def add(name):
        def deco(fn):
            tests.append((prefix + "/" + name, fn))
            return fn
        return deco
    return tests, add
