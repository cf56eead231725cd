#!/usr/bin/env python3
"""Shadows of rounded rectangles against an exact Gaussian and against the Skia oracle.

For each blur (sigma 1 to 20 points) and a few fractional positions and offsets, a scene with
one rounded rectangle casting a black shadow is rendered by `sheen render` and by the oracle
(../shared/oracle/skia_scene.py), and both are compared with an exact reference computed here
with numpy: the shape's coverage at 16x16 samples per pixel, convolved with the Gaussian in the
frequency domain, then averaged per pixel (the blur of the pixels' area coverage). Only shadow
pixels are compared: a `shadowPath` scene has no body, and an alpha-shadow scene is compared
outside the layer's bounds grown by a pixel.

usage: shadow-accuracy.py SHEEN [--oracle PYTHON] [--tolerance 4] [--quick]
Prints one line per case and exits 1 when any case is further than the tolerance (in 255ths)
from the exact shadow. The oracle is shown for reference: its blurs are approximations (triple
box blurs, whole-pixel image offsets) that lie further than that from the exact Gaussian.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.path.join(HERE, "..", "..", "shared", "oracle", "skia_scene.py")
SS = 16


def rr_coverage(w, h, x, y, rw, rh, r, ss=SS):
    """Coverage of the rounded rect (x, y, rw, rh, radius r) at ss x ss samples per pixel."""
    ys = (np.arange(h * ss) + 0.5) / ss
    xs = (np.arange(w * ss) + 0.5) / ss
    X, Y = np.meshgrid(xs, ys)
    inside = (X >= x) & (X <= x + rw) & (Y >= y) & (Y <= y + rh)
    r = min(r, rw / 2, rh / 2)
    if r > 0:
        for cx, cy, sx, sy in [
            (x + r, y + r, -1, -1),
            (x + rw - r, y + r, 1, -1),
            (x + rw - r, y + rh - r, 1, 1),
            (x + r, y + rh - r, -1, 1),
        ]:
            corner = ((X - cx) * sx > 0) & ((Y - cy) * sy > 0)
            outside = (X - cx) ** 2 + (Y - cy) ** 2 > r * r
            inside &= ~(corner & outside)
    return inside.astype(np.float64)


def gaussian_blur(img, sigma):
    """Exact Gaussian blur (periodic, with enough padding) through the FFT."""
    h, w = img.shape
    fy = np.fft.fftfreq(h)
    fx = np.fft.fftfreq(w)
    gy = np.exp(-2 * (np.pi * fy * sigma) ** 2)
    gx = np.exp(-2 * (np.pi * fx * sigma) ** 2)
    return np.real(np.fft.ifft2(np.fft.fft2(img) * np.outer(gy, gx)))


def exact_shadow(w, h, x, y, rw, rh, r, sigma, ss=SS):
    cov = rr_coverage(w, h, x, y, rw, rh, r, ss)
    blurred = gaussian_blur(cov, sigma * ss) if sigma > 0 else cov
    return blurred.reshape(h, ss, w, ss).mean(axis=(1, 3))


def alpha(path):
    return np.asarray(Image.open(path).convert("RGBA"), dtype=np.float64)[:, :, 3]


def scene(w, h, x, y, rw, rh, r, sigma, dx, dy, with_path):
    layer = {
        "frame": [x, y, rw, rh],
        "cornerRadius": r,
        "shadowOpacity": 1,
        "shadowRadius": sigma,
        "shadowOffset": [dx, dy],
    }
    if with_path:
        layer["shadowPath"] = {"roundedRect": [0, 0, rw, rh], "cornerRadius": r}
    else:
        layer["backgroundColor"] = "#FFFFFF"
    return {"width": w, "height": h, "layers": [layer]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sheen")
    ap.add_argument("--oracle", default=sys.executable)
    ap.add_argument("--tolerance", type=float, default=4)
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    sigmas = [1, 2.5, 6, 20] if a.quick else [1, 1.5, 2.5, 4, 6, 10, 14, 20]
    placements = [(0.0, 0.0, 0.0, 0.0), (0.3, 0.7, 0.5, 0.5), (0.55, 0.25, 1.25, 3.75)]
    worst = 0.0
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for sigma in sigmas:
            for with_path in (True, False):
                for fx, fy, dx, dy in placements:
                    m = int(3 * sigma) + 6
                    rw, rh, r = 60.5, 37.25, 12
                    w = int(rw + 2 * m + 8)
                    h = int(rh + 2 * m + 8)
                    x = m + fx
                    y = m + fy
                    sc = scene(w, h, x, y, rw, rh, r, sigma, dx, dy, with_path)
                    f = os.path.join(tmp, "s.json")
                    with open(f, "w") as fh:
                        json.dump(sc, fh)
                    ours = os.path.join(tmp, "ours.png")
                    skia = os.path.join(tmp, "skia.png")
                    subprocess.run([a.sheen, "render", f, "-o", ours], check=True, capture_output=True)
                    subprocess.run([a.oracle, ORACLE, f, skia], check=True, capture_output=True)
                    ref = exact_shadow(w, h, x + dx, y + dy, rw, rh, r, sigma) * 255
                    o = alpha(ours)
                    s = alpha(skia)
                    keep = np.ones_like(ref, dtype=bool)
                    if not with_path:
                        keep[int(y) - 1 : int(y + rh) + 2, int(x) - 1 : int(x + rw) + 2] = False
                    d_exact = np.abs(o - ref)[keep].max()
                    d_skia = np.abs(o - s)[keep].max()
                    d_skia_exact = np.abs(s - ref)[keep].max()
                    kind = "shadowPath" if with_path else "alpha"
                    bad = d_exact > a.tolerance
                    failed |= bad
                    worst = max(worst, d_exact)
                    print(
                        f"sigma {sigma:5.1f} {kind:10s} at +{fx},{fy} offset {dx},{dy}: "
                        f"exact {d_exact:5.2f}  skia {d_skia:5.2f}  (skia vs exact {d_skia_exact:5.2f})"
                        + ("  OVER" if bad else "")
                    )
    print(f"largest difference from the exact shadow: {worst:.2f}/255")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
