"""A UCI engine driven line by line, for the scripts beside this file (Python 3 alone)."""

import subprocess
import time


class Engine:
    """A UCI engine driven line by line."""

    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.send("uci")
        self.read_until("uciok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix, timeout=60.0):
        """The lines up to and including the first that starts with `prefix`; `timeout`
        seconds at most (`None`: no limit)."""
        lines = []
        deadline = None if timeout is None else time.monotonic() + timeout
        while deadline is None or time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine ended before '{prefix}': {lines[-5:]}")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines
        raise RuntimeError(f"no '{prefix}' within {timeout} s")

    def sync(self):
        """The lines before `readyok`."""
        self.send("isready")
        return self.read_until("readyok")[:-1]

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)
