#!/usr/bin/env python3
"""A sweep of hostile input over every `sheen` subcommand and scene key.

    Scripts/hostile.py [--sheen PATH] [--only SUBSTRING] [--keep]

Runs a few hundred cases (about three minutes on two busy cores): numbers at the limits, NaN,
infinities and huge values, bad UTF-8, control characters, deep nesting, huge counts, bad images
and fonts, output paths that are directories, symbolic links, devices or read-only, SIGTERM in
the middle of a write, no display, an X server killed under `sheen demo`. Each case must end
with one of its command's documented exit statuses; a refusal must be one clean line first on
standard error (starting with `sheen`, no control characters, under 1000 bytes); nothing may
crash (signal, Swift runtime failure), hang (past the case's time limit) or pass its memory
bound (maximum resident set size, from GNU time); a file that was at the output path must still
be there, whole, after a failure, and no temporary file may be left beside it; no shared-memory
segment may be left (ipcs -m). Prints one line per failing case and a summary; exits 1 if any
failed. Needs GNU time (/usr/bin/time), timeout, Xvfb and ipcs; the binary defaults to
.build/release/sheen (swift build -c release --product sheen).
"""

import argparse
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Documented exit statuses (each command's --help footer).
STATUS = {
    "top": {0, 64},
    "render": {0, 1, 2, 64},
    "sample": {0, 1, 64},
    "preview": {0, 1, 2, 64},
    "dump": {0, 1, 64},
    "demo": {0, 1, 3, 64},
    "bench": {0, 1, 3, 64},
}
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
OLD = b"the file that was here before; it must survive a failed write\n"


class Sweep:
    def __init__(self, sheen, only):
        self.sheen = sheen
        self.only = only
        self.work = tempfile.mkdtemp(prefix="sheen-hostile-")
        self.cases = 0
        self.failures = []
        self.shm_before = self.segments()

    # MARK: helpers

    def path(self, *parts):
        return os.path.join(self.work, *parts)

    def write(self, name, data):
        p = self.path(name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode("utf-8", "surrogateescape"))
        return p

    @staticmethod
    def segments():
        """The shared-memory segments of this user (ipcs -m), as ids."""
        try:
            out = subprocess.run(["ipcs", "-m"], capture_output=True, text=True).stdout
        except OSError:
            return set()
        user = os.environ.get("USER") or subprocess.run(["id", "-un"], capture_output=True, text=True).stdout.strip()
        return {f.split()[1] for f in out.splitlines() if len(f.split()) > 2 and f.split()[2] == user}

    def fail(self, name, why, detail=""):
        self.failures.append(name)
        print(f"FAIL  {name}: {why}" + (f"\n      {detail}" if detail else ""), flush=True)

    def run(self, name, command, argv, statuses=None, rss_mb=700, timeout=60, stdin=None, env=None,
            output=None, keep_old=True, want=None, stdout_to=None, lines=None):
        """Runs `sheen argv...` and checks it. `output` is a path that holds OLD before the run
        (unless it is special); it must hold OLD still after a failure and a PNG after success."""
        if self.only and self.only not in name:
            return None
        self.cases += 1
        statuses = statuses if statuses is not None else STATUS[command]
        if output and keep_old and not os.path.exists(output):
            with open(output, "wb") as f:
                f.write(OLD)
        folder = os.path.dirname(output) if output and not output.startswith("/dev/") else None
        before = set(os.listdir(folder)) if folder and os.path.isdir(folder) else set()
        timing = self.path("time.txt")
        full_env = dict(os.environ)
        full_env.update(env or {})
        for k, v in (env or {}).items():
            if v is None:
                full_env.pop(k, None)
        args = ["/usr/bin/time", "-f", "%x %M", "-o", timing, "timeout", "-k", "5", str(timeout), self.sheen] + argv
        start = time.time()
        try:
            p = subprocess.run(args, input=stdin, stdout=stdout_to or subprocess.PIPE, stderr=subprocess.PIPE,
                               env=full_env, cwd=self.work, timeout=timeout + 30)
        except subprocess.TimeoutExpired:
            self.fail(name, "hung (timeout did not end it)")
            return None
        elapsed = time.time() - start
        text = open(timing).read() if os.path.exists(timing) else ""
        m = re.search(r"(-?\d+) (\d+)\s*$", text)
        signalled = re.search(r"terminated by signal (\d+)", text)
        status = int(m.group(1)) if m else p.returncode
        rss = int(m.group(2)) // 1024 if m else -1
        err = p.stderr
        if signalled:
            self.fail(name, f"killed by signal {signalled.group(1)}", err[-300:])
            return p
        if status == 124 or status == 137:
            self.fail(name, f"hung: still running after {timeout} s")
            return p
        if status not in statuses:
            self.fail(name, f"exit {status}, not one of {sorted(statuses)}", err[:300])
        if want is not None and status != want:
            self.fail(name, f"exit {status}, want {want}", err[:300])
        if rss > rss_mb:
            self.fail(name, f"{rss} MB resident, over {rss_mb} MB")
        if b"Fatal error" in err or b"runtime failure" in err or b"Illegal instruction" in err:
            self.fail(name, "Swift runtime failure", err[:300])
        if status != 0:
            first = err.split(b"\n", 1)[0]
            if not first.startswith(b"sheen"):
                self.fail(name, "the first line on stderr does not start with 'sheen'", repr(err[:200]))
            if len(first) >= 1000:
                self.fail(name, f"the error line is {len(first)} bytes")
            if re.search(rb"[\x00-\x08\x0b-\x1f\x7f]", first):
                self.fail(name, "control characters in the error line", repr(first[:200]))
            try:
                first.decode("utf-8")
            except UnicodeDecodeError:
                self.fail(name, "the error line is not UTF-8", repr(first[:200]))
        if lines is not None and len(err.splitlines()) != lines:
            self.fail(name, f"{len(err.splitlines())} lines on stderr, want {lines}", repr(err[:300]))
        if output and not output.startswith("/dev/") and os.path.lexists(output) and keep_old:
            real = os.path.realpath(output)
            if os.path.isfile(real):
                data = open(real, "rb").read()
                if status == 0 and not data.startswith(PNG_MAGIC):
                    self.fail(name, "exit 0 but no PNG at the output")
                if status != 0 and data != OLD:
                    self.fail(name, "the old file at the output path was changed or lost")
        elif output and keep_old and status != 0 and not output.startswith("/dev/") and not os.path.lexists(output):
            self.fail(name, "the old file at the output path was deleted")
        if folder and os.path.isdir(folder):
            left = {f for f in set(os.listdir(folder)) - before if f != os.path.basename(output)}
            if left:
                self.fail(name, f"left files beside the output: {sorted(left)[:5]}")
        if elapsed > timeout:
            self.fail(name, f"took {elapsed:.0f} s")
        return p

    # MARK: scenes

    def scene(self, name, layers=None, width=100, height=100, extra=None, raw=None, rss_mb=700,
              timeout=60, statuses=None, want=None, argv_extra=()):
        """Renders a scene file (JSON made from `layers`, or `raw` bytes)."""
        if raw is None:
            doc = {"width": width, "height": height, "layers": layers or []}
            doc.update(extra or {})
            raw = json.dumps(doc, allow_nan=True)
        f = self.write(f"scenes/{self.cases}.json", raw)
        out = self.path(f"scenes/{self.cases}.png")
        return self.run(f"render {name}", "render", ["render", f, "-o", out, *argv_extra], output=out,
                        rss_mb=rss_mb, timeout=timeout, statuses=statuses, want=want)

    def scene_keys(self):
        numbers = ["NaN", "Infinity", "-Infinity", "1e309", "-1e309", "1e308", "-1e308", "5e-324",
                   "-0", "0", "-1", "1e19", "9223372036854775808", "1" + "0" * 400, "0.5", "\"1\"",
                   "null", "true", "[]", "{}"]
        keys = ["cornerRadius", "borderWidth", "opacity", "shadowOpacity", "shadowRadius", "lineWidth",
                "fontSize", "contentsScale"]
        for key in keys:
            for n in numbers:
                kind = {"lineWidth": "shape", "fontSize": "text"}.get(key, "layer")
                layer = ('{"type": "%s", "frame": [10, 10, 50, 50], "backgroundColor": "#336699",'
                         ' "shadowOpacity": 0.5, "string": "hi", "path": "M0 0 L40 40 Z", "%s": %s}'
                         % (kind, key, n))
                self.scene(f"{key}={n[:20]}", raw='{"width": 100, "height": 100, "layers": [%s]}' % layer,
                           statuses={0, 2})
        for key in ["frame", "shadowOffset", "anchorPoint", "contentsRect", "contentsCenter", "startPoint",
                    "endPoint", "locations"]:
            for v in ["[NaN, 0, 1, 1]", "[1e308, 1e308, 1e308, 1e308]", "[-1e308, -1e308, 1e308, 1e308]",
                      "[0, 0]", "[]", "[1, 2, 3, 4, 5]", "[5e-324, 5e-324, 5e-324, 5e-324]", "\"0 0 1 1\"",
                      "[9.3e18, -9.3e18, 1, 1]", "[0.5, 0.5, 0, 0]", "[1, 0, -1, 2]"]:
                kind = "gradient" if key in ("startPoint", "endPoint", "locations") else "layer"
                layer = ('{"type": "%s", "frame": [10, 10, 50, 50], "colors": ["#ff0000", "#0000ff"],'
                         ' "shadowOpacity": 0.7, "backgroundColor": "#FFFFFF", "%s": %s}' % (kind, key, v))
                if key == "frame":
                    layer = '{"frame": %s, "backgroundColor": "#FF0000", "shadowOpacity": 1}' % v
                self.scene(f"{key}={v[:24]}", raw='{"width": 100, "height": 100, "layers": [%s]}' % layer,
                           statuses={0, 2})
        for v in ['{"scale": 1e308}', '{"scale": [0, 0]}', '{"scale": [1e-308, 1e308]}', '{"rotation": 1e308}',
                  '{"rotation": NaN}', '{"translation": [9.3e18, 9.3e18]}', '{"translation": [1e308, -1e308]}',
                  '{"scale": -1}', '{"skew": 1}', '[]', '{"scale": [1, 2, 3]}']:
            self.scene(f"transform={v[:30]}", raw='{"width": 100, "height": 100, "layers": [{"frame": [10,'
                       ' 10, 50, 50], "backgroundColor": "#FF0000", "shadowOpacity": 1, "transform": %s}]}' % v,
                       statuses={0, 2})
        for v in ['"#12345"', '"#gggggg"', '"red"', '"#ffffffff"', '"#FFF"', '[1, 0, 0]', '"#\\u0000ff"', 'null',
                  '"' + "#" * 100000 + '"']:
            self.scene(f"color={v[:20]}", raw='{"width": 100, "height": 100, "layers": [{"frame": [0, 0, 50, 50],'
                       ' "backgroundColor": %s}]}' % v, statuses={0, 2})
        for k, v in [("type", '"\\u001b[31mred"'), ("type", '"layer\\n"'), ("lineJoin", '"miter\\u0000"'),
                     ("lineCap", '"ROUND"'), ("fillRule", '"winding"'), ("gradientType", '"conic"'),
                     ("maskedCorners", '["top"]'), ("maskedCorners", '["topLeft", "topLeft"]'),
                     ("contentsGravity", '"middle"'), ("minificationFilter", '"cubic"'),
                     ("alignmentMode", '"justified"'), ("truncationMode", '"middle"'), ("fontWeight", '"bolder"'),
                     ("hidden", '"yes"'), ("masksToBounds", '1'), ("isWrapped", 'null'),
                     ("\\u202enosrever", '1'), ("a\\u0000b", '1'), ("\\ud800", '1')]:
            self.scene(f"key {k[:12]}={v[:12]}", raw='{"width": 100, "height": 100, "layers": [{"type":'
                       ' "text", "%s": %s}]}' % (k, v), statuses={0, 2})

    def scene_structure(self):
        self.scene("empty file", raw="", want=2)
        self.scene("bom", raw="\ufeff{\"width\": 10, \"height\": 10}", statuses={0, 2})
        self.scene("trailing garbage", raw='{"width": 10, "height": 10} x', want=2)
        self.scene("two documents", raw='{"width": 10, "height": 10}{"width": 10, "height": 10}', want=2)
        self.scene("bad utf-8 in a string", raw=b'{"width": 10, "height": 10, "layers": [{"type": "text", '
                   b'"frame": [0,0,10,10], "string": "\xff\xfe\xc0\xaf"}]}', want=2)
        self.scene("bad utf-8 in a key", raw=b'{"width": 10, "height": 10, "\xc3\x28": 1}', want=2)
        self.scene("overlong utf-8", raw=b'{"width": 10, "height": 10, "la\xc1\xb9ers": []}', want=2)
        self.scene("lone surrogate escape", raw='{"width": 10, "height": 10, "layers": [{"type": "text", '
                   '"frame": [0,0,10,10], "string": "\\udc00"}]}', statuses={0, 2})
        self.scene("nul bytes", raw=b'{"width": 10,\x00 "height": 10}', want=2)
        self.scene("raw control characters in a string", raw=b'{"width": 10, "height": 10, "layers": '
                   b'[{"type": "text", "string": "a\x01\x1b[2Jb"}]}', want=2)
        self.scene("arrays 100000 deep", raw="[" * 100000 + "]" * 100000, want=2)
        self.scene("objects 100000 deep", raw='{"a":' * 100000 + "1" + "}" * 100000, want=2)
        deep = '{"frame": [0,0,10,10], "sublayers": [%s]}'
        s = "{}"
        for _ in range(300):
            s = deep % s
        self.scene("300 nested layers", raw='{"width": 10, "height": 10, "layers": [%s]}' % s, want=2)
        s = '{"frame": [0,0,100,100]}'
        for _ in range(255):
            s = '{"frame": [0,0,100,100], "opacity": 0.99, "mask": %s}' % s if _ % 2 else \
                '{"frame": [0,0,100,100], "opacity": 0.99, "sublayers": [%s]}' % s
        self.scene("255 nested groups and masks", raw='{"width": 100, "height": 100, "layers": [%s]}' % s,
                   statuses={0, 2})
        many = ",".join('{"frame": [%d, %d, 5, 5], "backgroundColor": "#00FF00", "shadowOpacity": 0.5}'
                        % (i % 97, i % 89) for i in range(100000))
        self.scene("100,000 shadowed layers", raw='{"width": 100, "height": 100, "layers": [%s]}' % many,
                   statuses={0, 2}, timeout=120)
        self.scene("a 16 MiB + 1 file", raw=" " * (16 * 1024 * 1024 + 1), want=1)
        self.scene("1 MiB number", raw='{"width": 1%s, "height": 10}' % ("0" * 1048576), want=2)
        self.scene("1 MiB key", raw='{"%s": 1, "width": 10, "height": 10}' % ("k" * 1048576), want=2)
        self.scene("duplicate keys", raw='{"width": 10, "width": 10, "height": 10}', want=2)
        self.scene("composed and decomposed keys", raw='{"width": 10, "height": 10, "layers": [{"caf\u00e9": 1,'
                   ' "cafe\u0301": 2}]}', want=2)
        for w, h, scale in [(0, 10, 1), (16384, 1, 1.0000001), (16385, 1, 1), (1, 16385, 1), (8193, 10, 2),
                            (10, 10, 1e-308), (10, 10, 0), (10, 10, -1), (10.5, 10.5, 1), (1e308, 1e308, 1e-308),
                            (16384, 1, 1), (1, 16384, 1)]:
            self.scene(f"canvas {w}x{h} scale {scale}", width=w, height=h, extra={"scale": scale}, statuses={0, 2})
        self.scene("30 MB string", raw='{"width": 200, "height": 100, "layers": [{"type": "text", "frame": [0,0,200,100],'
                   ' "string": "%s"}]}' % ("word " * 3_000_000), want=2)
        self.scene("1 MiB string wrapped", raw='{"width": 200, "height": 100, "layers": [{"type": "text", "frame":'
                   ' [0,0,200,100], "isWrapped": true, "string": "%s"}]}' % ("word " * 200_000), want=0,
                   timeout=120)
        for script, sample in [("combining marks", "a" + "\u0301" * 100000), ("zero-width joiners", "\u200d" * 200000),
                               ("bidi overrides", "\u202e\u202d" * 100000 + "abc"),
                               ("emoji sequences", "\U0001F469\u200d\U0001F469\u200d\U0001F467" * 20000),
                               ("every script", "Hello Привет مرحبا שלום नमस्ते こんにちは 你好 안녕 ສະບາຍດີ ជំរាបសួរ ᐊᐃ 𝔘𝔫𝔦"),
                               ("private use and noncharacters", "\ue000\uffff\ufdd0\U0010FFFF" * 10000),
                               ("control characters", "".join(chr(c) for c in range(1, 32)) * 1000),
                               ("one long word", "x" * 500000),
                               # One grapheme cluster each (shaped 32 scalars at a time).
                               ("arabic tashkeel", "\u0628" + "\u064b" * 100000),
                               ("mixed combining classes", "a" + "\u0301\u0316\u0302\u0323" * 25000),
                               ("one emoji zwj grapheme", "\U0001F469\u200d" * 50000),
                               ("one hangul block", "\u1100" * 50000 + "\u1161" * 50000),
                               ("variation selectors", "a" + "\ufe0f" * 100000),
                               ("nested embeddings", ("\u202b\u202a" * 64 + "ab\u05d0") * 1000)]:
            for wrapped, trunc in [(False, "none"), (True, "end")]:
                self.scene(f"text {script} wrapped={wrapped}", layers=[{
                    "type": "text", "frame": [0, 0, 100, 100], "string": sample, "isWrapped": wrapped,
                    "truncationMode": trunc, "fontSize": 13}], statuses={0}, timeout=90)
        for fam in ["", "\u0000", "No Such Family", "DejaVu Sans\n", "x" * 100000, "../../etc/passwd",
                    "Noto Color Emoji"]:
            self.scene(f"fontFamily {fam[:12]!r}", layers=[{"type": "text", "frame": [0, 0, 100, 40],
                                                             "string": "abc 😀", "fontFamily": fam}], statuses={0, 2})
        for size in [0, 1e-308, 1e308, 100000, 0.001]:
            self.scene(f"fontSize {size}", layers=[{"type": "text", "frame": [0, 0, 100, 40], "string": "abc",
                                                    "fontSize": size}], statuses={0, 2})
        for d in ["", "M", "M0 0 L", "M0 0 C1 1", "M nan nan L 1 1", "M1e308 1e308 L-1e308 -1e308 Z",
                  "M0 0 " + "L1 1 L2 2 " * 200000, "M0 0 A 1e308 1e308 0 1 1 5 5", "M0 0 A 0 0 0 0 0 5 5",
                  "M0 0 Q 1e300 -1e300 50 50 T 1e300 1e300", "Z Z Z", "M0,0,,1", "m" * 100000,
                  "M0 0 " + " ".join(f"C {(-1) ** i * 200000} {(-1) ** (i // 2) * 200000} {(-1) ** i * -200000} "
                                     f"{(-1) ** (i // 2) * 200000} {i % 100} {i * 7 % 100}" for i in range(20000))]:
            for stroke in [None, "#000000"]:
                self.scene(f"path {d[:24]!r} stroke={stroke}", layers=[{
                    "type": "shape", "frame": [0, 0, 100, 100], "path": d, "strokeColor": stroke,
                    "lineWidth": 3, "lineJoin": "round"}], statuses={0, 2}, timeout=90)

        # Strokes of many segments inside the canvas: memory is the centre line and a strip of
        # cells, not an outline path per segment (1 GB and 3.8 GB before).
        rnd = __import__("random").Random(3)
        near = "M50 50 " + " ".join("C" + " ".join(f"{rnd.uniform(-50, 150):.1f}" for _ in range(6))
                                    for _ in range(30000))
        walk = "M50 50 " + " ".join(f"l{rnd.uniform(-2, 2):.1f} {rnd.uniform(-2, 2):.1f}" for _ in range(400000))
        for name, d in [("1 MB of cubics inside the canvas", near), ("400,000 segments", walk)]:
            for join in ["miter", "round"]:
                self.scene(f"stroked {name} join={join}", layers=[{
                    "type": "shape", "frame": [0, 0, 100, 100], "path": d, "fillColor": None,
                    "strokeColor": "#000000", "lineWidth": 3, "lineJoin": join}], want=0, rss_mb=400, timeout=120)

    def images(self):
        img = os.path.join(ROOT, "Tests", "Scenes", "images")
        os.makedirs(self.path("scenes"), exist_ok=True)
        for f in os.listdir(os.path.join(img, "broken")):
            shutil.copy(os.path.join(img, "broken", f), self.path("scenes", "broken-" + f))
        shutil.copy(os.path.join(img, "checker.png"), self.path("scenes", "checker.png"))
        self.write("scenes/zero.png", b"")
        self.write("scenes/header-only.png", PNG_MAGIC)
        self.write("scenes/jpeg-garbage.jpg", b"\xff\xd8\xff\xe0" + os.urandom(5000))
        self.write("scenes/png-garbage.png", PNG_MAGIC + os.urandom(5000))
        # A PNG header claiming 16384 x 16384 with no data.
        import struct
        import zlib
        ihdr = struct.pack(">IIBBBBB", 16384, 16384, 8, 6, 0, 0, 0)
        chunk = struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
        self.write("scenes/claims-16384.png", PNG_MAGIC + chunk)
        # A decompression bomb: 16000 x 16000 of zeros, a few hundred kilobytes compressed.
        ihdr = struct.pack(">IIBBBBB", 16000, 16000, 8, 0, 0, 0, 0)
        raw = zlib.compress(b"\x00" * (16001 * 16000), 9)
        idat = struct.pack(">I", len(raw)) + b"IDAT" + raw + struct.pack(">I", zlib.crc32(b"IDAT" + raw))
        iend = struct.pack(">I", 0) + b"IEND" + struct.pack(">I", zlib.crc32(b"IEND"))
        chunk = struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
        self.write("scenes/bomb.png", PNG_MAGIC + chunk + idat + iend)
        os.makedirs(self.path("scenes", "a-directory.png"), exist_ok=True)
        if not os.path.lexists(self.path("scenes", "zero-link.png")):
            os.symlink("/dev/zero", self.path("scenes", "zero-link.png"))
            os.symlink("/etc/passwd", self.path("scenes", "passwd-link.png"))
            os.mkfifo(self.path("scenes", "fifo.png"))
        names = ["broken-" + f for f in os.listdir(os.path.join(img, "broken"))] + [
            "zero.png", "header-only.png", "jpeg-garbage.jpg", "png-garbage.png", "claims-16384.png", "bomb.png",
            "a-directory.png", "zero-link.png", "passwd-link.png", "fifo.png", "missing.png", "/etc/passwd",
            "../../../etc/passwd", "checker.png\u0000.txt", "checker.png/..", "", "\u001b[2J.png", "checker.png"]
        for n in names:
            self.scene(f"contents {n[:24]!r}", layers=[{"frame": [0, 0, 100, 100], "contents": n,
                                                        "contentsGravity": "resizeAspectFill",
                                                        "minificationFilter": "trilinear"}],
                       statuses={0, 2} if n != "checker.png" else {0},
                       # A 16000 x 16000 image is legal (16384 a side): 1 GiB of pixels and its mipmaps.
                       rss_mb=2600 if n == "bomb.png" else 700, timeout=180 if n == "bomb.png" else 30)
        for rect in [[0, 0, 1e-308, 1e-308], [0.5, 0.5, 0, 0], [-1, -1, 3, 3], [0, 0, 1e308, 1e308]]:
            self.scene(f"contentsRect {rect}", layers=[{"frame": [0, 0, 100, 100], "contents": "checker.png",
                                                        "contentsRect": rect}], statuses={0, 2})
        for scale in [1e-308, 1e308, 0, 5e-324]:
            self.scene(f"contentsScale {scale}", layers=[{"frame": [0, 0, 100, 100], "contents": "checker.png",
                                                          "contentsScale": scale, "contentsGravity": "center"}],
                       statuses={0, 2})

    # MARK: command lines

    def command_lines(self):
        bad_numbers = ["nan", "NaN", "inf", "-inf", "1e400", "0x10", " 3", "3 ", "", "-1", "0", "1_000",
                       "99999999999999999999999", "9223372036854775807", "-9223372036854775808", "1e-400",
                       "3\n4", "\u0663", "\xff", "1" * 100000, "+5", "5.", ".5", "1e3"]
        options = {
            "render": ["--scale", "--repeat"],
            "sample": ["--scale"],
            "preview": ["--scale", "--size"],
            "dump": ["--size", "--scale", "--frames", "--cards", "--threads"],
            "demo": ["--fps", "--size", "--frames", "--scale", "--cards"],
            "bench": ["--threads", "--size", "--frames", "--seconds", "--warmup", "--cards", "--scroll-range"],
        }
        scene = self.write("cli/ok.json", '{"width": 20, "height": 20, "layers": [{"frame": [2,2,10,10],'
                           ' "backgroundColor": "#FF0000"}]}')
        base = {
            "render": ["render", scene, "-o", self.path("cli/r.png")],
            "sample": ["sample", "-o", self.path("cli/s.png")],
            "preview": ["preview", "SwiftUICardView_Previews", "-o", self.path("cli/p.png")],
            "dump": ["dump", "-o", self.path("cli/dump"), "--size", "64x64"],
            "demo": ["demo", "--frames", "1"],
            "bench": ["bench", "--offscreen", "--frames", "2", "--warmup", "0", "--size", "64x64"],
        }
        no_display = {"DISPLAY": None, "WAYLAND_DISPLAY": None}
        for cmd, opts in options.items():
            for opt in opts:
                for v in bad_numbers:
                    argv = [a for a in base[cmd]]
                    # The option given last wins or is refused as repeated; either is fine.
                    argv += [opt, v]
                    self.run(f"{cmd} {opt} {v[:16]!r}", cmd, argv, env=no_display, statuses={0, 3, 64} |
                             ({1} if cmd in ("sample", "preview", "render") else set()), timeout=60)
        for cmd in ["render", "sample", "preview", "dump", "demo", "bench", "bench raster", "bench cards",
                    "bench photos", "bench text", "bench layout", "bench draw"]:
            words = cmd.split()
            top = words[0]
            self.run(f"{cmd} --help", top, words + ["--help"], want=0)
            self.run(f"{cmd} -h with junk", top, words + ["-h", "--bogus"], statuses={0, 64})
            self.run(f"{cmd} --bogus", top, words + ["--bogus"], want=64, env=no_display)
            self.run(f"{cmd} --\\x1b[31m", top, words + ["--\x1b[31mred"], want=64, env=no_display)
            self.run(f"{cmd} bad utf-8 option", top, words + [os.fsdecode(b"--\xff\xfe")], want=64, env=no_display)
            self.run(f"{cmd} 120 KB option", top, words + ["--" + "x" * 120_000], want=64, env=no_display)
            self.run(f"{cmd} stray positional", top, words + ["stray", "extra"], statuses={0, 1, 2, 64},
                     env=no_display)
            self.run(f"{cmd} missing value", top, words + ["--threads"] if "bench" in cmd else words + ["--scale"],
                     statuses={64}, env=no_display)
        for sub in ["raster", "cards", "photos", "text", "layout", "draw"]:
            for v in ["0", "100001", "nan", "1e3"]:
                self.run(f"bench {sub} --runs {v}", "bench", ["bench", sub, "--runs", v], want=64)
            self.run(f"bench {sub} --runs 1", "bench", ["bench", sub, "--runs", "1"], want=0, timeout=120,
                     rss_mb=1200)
        for argv in [[], ["--version"], ["-V"], ["help"], ["--bogus"], ["nope"], ["\x1b[2J"], [os.fsdecode(b"\xff")],
                     ["--version", "extra"], ["-"], ["--"]]:
            self.run(f"sheen {argv!r}"[:60], "top", argv, statuses={0, 64})
        # Scripts.
        for script in ["wait nan", "wait inf", "wait 1e300", "wheel -1e19", "tap-button nan",
                       "wheel -9223372036854775808", "wait 1e9", "wheel 100000000", "fling 1e300",
                       "steady -1e309", "press 1e300 0", "key \x1b", "key " + "a" * 10000, "wait 36001",
                       ", , ,", "wait 5;" * 2000, "tap-button 10001", "drag nan", "move 1 2 3", "release 5",
                       "wait -1", "wait 5\nwait 5", "tour, tour", "wait 36000, wait 36000", "wait\u00a05",
                       "wait ５", "key \u202e"]:
            for cmd in ["dump", "demo"]:
                argv = base[cmd] + ["--script", script]
                # Empty steps are skipped: ", , ," is a script that does nothing.
                legal = {0} if script in (", , ,", "tour, tour") else set()
                self.run(f"{cmd} --script {script[:20]!r}", cmd, argv, env=no_display, timeout=60,
                         statuses=({64} | legal) if cmd == "dump" else {3, 64})
        self.run("dump a legal script", "dump", base["dump"] + ["--script", "tour", "--frames", "0,100,200"],
                 want=0, timeout=120)
        for ui in ["uikit", "swiftui", "SwiftUI", "", "appkit"]:
            self.run(f"dump --ui {ui!r}", "dump", base["dump"] + ["--ui", ui], statuses={0, 64}, timeout=120)
        for cards in ["1", "1000000", "1000001", "0"]:
            self.run(f"dump --cards {cards}", "dump", base["dump"] + ["--cards", cards, "--script", "tour",
                                                                      "--frames", "0,600"],
                     statuses={0, 64}, timeout=120, rss_mb=900)
        # Limits that are legal but large: bounded by the canvas.
        self.run("dump at 4096x4096", "dump", base["dump"] + ["--size", "4096x4096"], want=0, rss_mb=700,
                 timeout=120)
        self.run("preview too large a canvas", "preview", base["preview"] + ["--size", "16384x16384",
                                                                               "--scale", "8"], want=64)
        # At the limit (16384 pixels a side): legal, 1 GiB of canvas and its straight-alpha copy.
        self.run("preview at 4096x4096 points scale 4", "preview", base["preview"] + ["--size", "4096x4096",
                                                                                       "--scale", "4"], want=0,
                 rss_mb=2600, timeout=300)
        self.run("preview --list with junk", "preview", ["preview", "--list", "x"], statuses={0, 64})
        self.run("preview no such name", "preview", ["preview", "\x1b[2Jnope", "-o", self.path("cli/p2.png")],
                 want=2, output=self.path("cli/p2.png"))
        self.run("sample --scale 8", "sample", ["sample", "-o", self.path("cli/s8.png"), "--scale", "8"], want=0,
                 output=self.path("cli/s8.png"))
        self.run("demo without a display", "demo", ["demo", "--frames", "5"], env=no_display, want=3)
        self.run("demo --ui swiftui without a display", "demo", ["demo", "--ui", "swiftui"], env=no_display, want=3)
        self.run("demo with a display that does not exist", "demo", ["demo"], env={"DISPLAY": ":999",
                                                                                 "WAYLAND_DISPLAY": None}, want=3)
        self.run("demo with a malformed DISPLAY", "demo", ["demo"], env={"DISPLAY": "\x1b[2J:::",
                                                                         "WAYLAND_DISPLAY": None}, want=3)
        self.run("demo with a Wayland socket that does not exist", "demo", ["demo", "--backend", "wayland"],
                 env={"WAYLAND_DISPLAY": "nope-0", "DISPLAY": None}, want=3)
        self.run("bench (windowed) without a display", "bench", ["bench", "--frames", "2"], env=no_display, want=3)
        # libwayland prints its own line when XDG_RUNTIME_DIR is missing: Sheen's must be the only one.
        for runtime in [None, "", "relative"]:
            self.run(f"demo --backend wayland with XDG_RUNTIME_DIR={runtime!r}", "demo",
                     ["demo", "--backend", "wayland"], env={"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": None,
                                                            "XDG_RUNTIME_DIR": runtime}, want=3, lines=1)
        for v in ["+5", "-0", "+0"]:
            self.run(f"render --repeat {v}", "render", base["render"] + ["--repeat", v], want=64)
            self.run(f"dump --frames {v}", "dump", base["dump"] + ["--frames", v], want=64)

    # MARK: outputs

    def outputs(self):
        scene = self.write("out/ok.json", '{"width": 20, "height": 20, "layers": []}')
        big = self.write("out/big.json", '{"width": 8000, "height": 8000, "layers": [{"frame": [0,0,8000,8000],'
                         ' "colors": ["#ff0000", "#00ff00", "#0000ff"], "type": "gradient"}]}')
        os.makedirs(self.path("out/dir.png"), exist_ok=True)
        ro = self.path("out/readonly")
        os.makedirs(ro, exist_ok=True)
        with open(os.path.join(ro, "x.png"), "wb") as f:
            f.write(OLD)
        os.chmod(ro, 0o555)
        target = self.write("out/target.png", OLD)
        link = self.path("out/link.png")
        if not os.path.lexists(link):
            os.symlink(target, link)
            os.symlink(self.path("out/nowhere/x.png"), self.path("out/dangling.png"))
        cases = [
            ("a directory", self.path("out/dir.png"), {1}, False),
            # (root writes anywhere: then the write succeeds.)
            ("a read-only directory", os.path.join(ro, "x.png"), {0, 1} if os.geteuid() == 0 else {1}, True),
            ("a missing directory", self.path("out/missing/x.png"), {1}, False),
            ("a dangling symbolic link", self.path("out/dangling.png"), {1}, False),
            ("/dev/full", "/dev/full", {1}, False),
            ("/dev/null", "/dev/null", {0}, False),
            ("an empty name", "", {1, 64}, False),
            ("a name with a newline", self.path("out/new\nline.png"), {0}, False),
            ("a name with escapes", self.path("out/\x1b[2J.png"), {0}, False),
            ("a 5000-byte name", self.path("out/" + "n" * 5000 + ".png"), {1, 64}, False),
            ("bad utf-8 name", self.path(os.fsdecode(b"out/\xff\xfe.png")), {0}, False),
        ]
        for what, out, statuses, keep in cases:
            for cmd, argv in [("render", ["render", scene, "-o", out]), ("sample", ["sample", "-o", out]),
                              ("preview", ["preview", "SwiftUICardView_Previews", "-o", out])]:
                self.run(f"{cmd} -o {what}", cmd, argv, statuses=statuses, output=out if keep else None)
            # dump's -o is a folder, made when missing: a folder or a missing one is fine.
            self.run(f"dump -o {what}", "dump", ["dump", "-o", out],
                     statuses={0, 1} | ({64} if 64 in statuses else set()))
        p = self.run("render -o through a symbolic link", "render", ["render", scene, "-o", link], want=0)
        if p is not None:
            if not os.path.islink(link) or not open(target, "rb").read().startswith(PNG_MAGIC):
                self.fail("render -o through a symbolic link", "the link was replaced or its target not written")
        # -o - to a closed or full standard output.
        self.run("render -o - to /dev/full", "render", ["render", scene, "-o", "-"], want=1,
                 stdout_to=open("/dev/full", "wb"))
        self.run("render -o - to a closed pipe", "render", ["render", big, "-o", "-"], statuses={1},
                 stdout_to=subprocess.DEVNULL if False else self.closed_pipe(), timeout=120, rss_mb=800)
        # ulimit -f: the write fails; the old file stays.
        out = self.path("out/limited.png")
        with open(out, "wb") as f:
            f.write(OLD)
        self.run_shell("render past ulimit -f", f"ulimit -f 16; exec '{self.sheen}' render '{big}' -o '{out}'",
                       {1}, out)
        # SIGTERM and SIGINT in the middle of encoding a large PNG: the old file stays, no temporary.
        for sig in [signal.SIGTERM, signal.SIGINT, signal.SIGHUP]:
            self.interrupt(f"render {sig.name} mid-write", ["render", big, "-o"], sig)
            self.interrupt(f"dump {sig.name} mid-write", ["dump", "--size", "8000x8000", "-o"], sig, folder=True)
        # Many outputs in parallel to one path: one wins, none is torn.
        out = self.path("out/race.png")
        procs = [subprocess.Popen([self.sheen, "render", scene, "-o", out], stderr=subprocess.DEVNULL)
                 for _ in range(8)]
        if self.only is None or self.only in "render racing writers":
            self.cases += 1
            codes = [p.wait() for p in procs]
            data = open(out, "rb").read() if os.path.exists(out) else b""
            leftovers = [f for f in os.listdir(self.path("out")) if "race" in f and f != "race.png"]
            if any(codes) or not data.startswith(PNG_MAGIC) or leftovers:
                self.fail("render racing writers", f"statuses {codes}, leftovers {leftovers}")

    def closed_pipe(self):
        r, w = os.pipe()
        os.close(r)
        return w

    def run_shell(self, name, script, statuses, out):
        if self.only and self.only not in name:
            return
        self.cases += 1
        p = subprocess.run(["bash", "-c", script], capture_output=True, timeout=120)
        if p.returncode not in statuses:
            self.fail(name, f"exit {p.returncode}", p.stderr[:300])
        if open(out, "rb").read() != OLD:
            self.fail(name, "the old file was changed")
        left = [f for f in os.listdir(os.path.dirname(out)) if f.startswith(".") and "limited" in f]
        if left:
            self.fail(name, f"left {left}")
        if not p.stderr.startswith(b"sheen"):
            self.fail(name, "no clean error line", p.stderr[:300])

    def interrupt(self, name, argv, sig, folder=False):
        if self.only and self.only not in name:
            return
        self.cases += 1
        d = self.path("out", "sig-" + name.replace(" ", "-"))
        os.makedirs(d, exist_ok=True)
        out = d if folder else os.path.join(d, "x.png")
        old = os.path.join(d, "frame-0000.png") if folder else out
        with open(old, "wb") as f:
            f.write(OLD)
        p = subprocess.Popen([self.sheen] + argv + [out], stderr=subprocess.PIPE)
        # Signal once the temporary file has appeared (the encode is under way), or after 20 s.
        deadline = time.time() + 20
        while time.time() < deadline and p.poll() is None:
            if any(f != os.path.basename(old) for f in os.listdir(d)):
                break
            time.sleep(0.02)
        time.sleep(0.2)
        p.send_signal(sig)
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            self.fail(name, "did not stop")
        err = p.stderr.read()
        if p.returncode < 0 and -p.returncode != sig:
            self.fail(name, f"died of signal {-p.returncode}")
        if open(old, "rb").read() != OLD:
            self.fail(name, "the old file was changed or lost")
        left = [f for f in os.listdir(d) if f != os.path.basename(old)]
        if left:
            self.fail(name, f"left {left}")
        if b"Fatal error" in err:
            self.fail(name, "Swift runtime failure", err[:300])

    # MARK: a dying display

    def displays(self):
        if not shutil.which("Xvfb"):
            print("skip  X cases: Xvfb is missing")
            return
        for ui in ["uikit", "swiftui"]:
            for when in [0.0, 1.5, 4.0]:
                self.x_dies(f"demo --ui {ui}: the X server killed after {when} s", ["demo", "--ui", ui], when)
        self.x_dies("bench (windowed): the X server killed", ["bench", "--frames", "100000"], 3.0, statuses={3})
        self.x_dies("demo --script tour: SIGTERM", ["demo", "--script", "tour"], 3.0, statuses={0},
                    signal_demo=signal.SIGTERM)

    def x_dies(self, name, argv, after, statuses=frozenset({3}), signal_demo=None):
        if self.only and self.only not in name:
            return
        self.cases += 1
        r, w = os.pipe()
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-nolisten", "tcp", "-screen", "0", "800x600x24"],
                                pass_fds=(w,), stderr=subprocess.DEVNULL)
        os.close(w)
        # Xvfb writes the number and then a newline: read both, and keep the pipe open while it
        # runs (closing it early killed Xvfb by SIGPIPE, so every case met no display at all).
        number = b""
        while not number.endswith(b"\n"):
            chunk = os.read(r, 32)
            if not chunk:
                break
            number += chunk
        number = number.decode().strip()
        env = dict(os.environ, DISPLAY=":" + number)
        env.pop("WAYLAND_DISPLAY", None)
        before = self.segments()
        demo = subprocess.Popen([self.sheen] + argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(after)
        if after > 0 and demo.poll() is not None:
            # It must be running on the display when the server dies (or the signal comes).
            self.fail(name, f"exited ({demo.returncode}) before the server was killed", demo.stderr.read()[:300])
        if signal_demo:
            demo.send_signal(signal_demo)
        else:
            xvfb.kill()
        try:
            status = demo.wait(timeout=20)
        except subprocess.TimeoutExpired:
            demo.kill()
            status = "hung"
        xvfb.kill()
        xvfb.wait()
        os.close(r)
        err = demo.stderr.read()
        time.sleep(0.2)
        leaked = self.segments() - before
        if status not in statuses:
            self.fail(name, f"exit {status}, want {sorted(statuses)}", err[:300])
        if leaked:
            self.fail(name, f"left shared-memory segments {sorted(leaked)}")
        if status != 0 and not err.startswith(b"sheen"):
            self.fail(name, "no clean error line", err[:300])

    def finish(self, keep):
        leaked = self.segments() - self.shm_before
        if leaked:
            self.fail("the sweep", f"shared-memory segments left: {sorted(leaked)}")
        ro = self.path("out/readonly")
        if os.path.isdir(ro):
            os.chmod(ro, 0o755)
        if not keep:
            shutil.rmtree(self.work, ignore_errors=True)
        print(f"hostile: {self.cases} cases, {len(self.failures)} failed" + (f" (kept {self.work})" if keep else ""))
        return 1 if self.failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sheen", default=os.path.join(ROOT, ".build", "release", "sheen"))
    ap.add_argument("--only", help="run only the cases whose name contains this")
    ap.add_argument("--keep", action="store_true", help="keep the working directory")
    a = ap.parse_args()
    for tool in ["/usr/bin/time", shutil.which("timeout"), shutil.which("ipcs")]:
        if not tool or not os.path.exists(tool):
            sys.exit("hostile: needs GNU time (apt-get install time), timeout and ipcs (util-linux)")
    if not os.access(a.sheen, os.X_OK):
        sys.exit(f"hostile: no sheen binary at {a.sheen} (swift build -c release --product sheen)")
    s = Sweep(os.path.abspath(a.sheen), a.only)
    start = time.time()
    for part in [s.command_lines, s.scene_structure, s.scene_keys, s.images, s.outputs, s.displays]:
        part()
    print(f"hostile: {time.time() - start:.0f} s")
    sys.exit(s.finish(a.keep))


if __name__ == "__main__":
    main()
