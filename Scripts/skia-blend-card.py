#!/usr/bin/env python3
"""Writes Skia's pictures of the blend-mode test card (Tests/SheenRasterTests/BlendModeTests.swift).

The card: 12 destination colours as rows (each row 2 pixels high, drawn source-over onto
transparent), then 12 source colours as columns (each cell 3 pixels wide; the source rectangle
covers the middle pixel fully and the two beside it half, so that coverage 1 and 1/2 are both
tested), drawn with one blend mode. Output: for each mode in MODES, the 36x24 picture as
premultiplied RGBA bytes, one after another, in Tests/References/blend/skia-blend-card.bin.

plusDarker is not a Skia mode; its pixels come from Core Graphics' formula
R = max(0, 1 - ((1 - D) + (1 - S))) in premultiplied form (see BlendMode.swift), computed here
in floating point after Skia has drawn the destination.

Run: python3 Scripts/skia-blend-card.py   (skia-python, numpy)
"""
import os
import numpy as np
import skia

DST = [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255), (255, 255, 255, 255), (0, 0, 0, 255),
       (128, 128, 128, 255), (255, 200, 40, 200), (30, 144, 255, 128), (200, 60, 180, 64),
       (90, 220, 120, 20), (0, 0, 0, 0), (250, 240, 230, 255)]
SRC = [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255), (255, 255, 255, 255), (0, 0, 0, 255),
       (128, 128, 128, 255), (40, 80, 220, 180), (255, 120, 0, 128), (20, 200, 200, 60),
       (230, 30, 90, 10), (0, 0, 0, 0), (70, 50, 30, 230)]
MODES = ["clear", "copy", "sourceIn", "sourceOut", "sourceAtop", "destinationOver", "destinationIn",
         "destinationOut", "destinationAtop", "xor", "plusLighter", "plusDarker", "multiply", "screen",
         "overlay", "darken", "lighten", "colorDodge", "colorBurn", "hardLight", "softLight",
         "difference", "exclusion", "hue", "saturation", "color", "luminosity", "normal"]
SKIA = {"clear": skia.BlendMode.kClear, "copy": skia.BlendMode.kSrc, "sourceIn": skia.BlendMode.kSrcIn,
        "sourceOut": skia.BlendMode.kSrcOut, "sourceAtop": skia.BlendMode.kSrcATop,
        "destinationOver": skia.BlendMode.kDstOver, "destinationIn": skia.BlendMode.kDstIn,
        "destinationOut": skia.BlendMode.kDstOut, "destinationAtop": skia.BlendMode.kDstATop,
        "xor": skia.BlendMode.kXor, "plusLighter": skia.BlendMode.kPlus,
        "multiply": skia.BlendMode.kMultiply, "screen": skia.BlendMode.kScreen,
        "overlay": skia.BlendMode.kOverlay, "darken": skia.BlendMode.kDarken,
        "lighten": skia.BlendMode.kLighten, "colorDodge": skia.BlendMode.kColorDodge,
        "colorBurn": skia.BlendMode.kColorBurn, "hardLight": skia.BlendMode.kHardLight,
        "softLight": skia.BlendMode.kSoftLight, "difference": skia.BlendMode.kDifference,
        "exclusion": skia.BlendMode.kExclusion, "hue": skia.BlendMode.kHue,
        "saturation": skia.BlendMode.kSaturation, "color": skia.BlendMode.kColor,
        "luminosity": skia.BlendMode.kLuminosity, "normal": skia.BlendMode.kSrcOver}
W, H = 3 * len(SRC), 2 * len(DST)


def paint(c, mode=skia.BlendMode.kSrcOver):
    p = skia.Paint(Color=skia.ColorSetARGB(c[3], c[0], c[1], c[2]), AntiAlias=True)
    p.setBlendMode(mode)
    return p


def destination():
    surface = skia.Surface.MakeRaster(skia.ImageInfo.Make(W, H, skia.kRGBA_8888_ColorType, skia.kPremul_AlphaType))
    canvas = surface.getCanvas()
    canvas.clear(skia.ColorTRANSPARENT)
    for j, c in enumerate(DST):
        canvas.drawRect(skia.Rect.MakeXYWH(0, 2 * j, W, 2), paint(c))
    return surface, canvas


def pixels(surface):
    return np.frombuffer(bytes(surface.makeImageSnapshot().tobytes()), dtype=np.uint8).reshape(H, W, 4).copy()


def plus_darker():
    surface, _ = destination()
    d = pixels(surface).astype(np.float64) / 255
    out = d.copy()
    for i, c in enumerate(SRC):
        a = c[3] / 255
        s = np.array([c[0] / 255 * a, c[1] / 255 * a, c[2] / 255 * a, a])
        for x, cov in ((3 * i, 0.5), (3 * i + 1, 1.0), (3 * i + 2, 0.5)):
            dd = d[:, x, :]
            ra = np.minimum(1, s[3] + dd[:, 3:4])
            rc = np.maximum(0, ra - ((s[3] - s[:3]) + (dd[:, 3:4] - dd[:, :3])))
            r = np.concatenate([rc, ra], axis=1)
            out[:, x, :] = dd + (r - dd) * cov
    return np.clip(np.round(out * 255), 0, 255).astype(np.uint8)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    chunks = []
    for m in MODES:
        if m == "plusDarker":
            chunks.append(plus_darker().tobytes())
            continue
        surface, canvas = destination()
        for i, c in enumerate(SRC):
            canvas.drawRect(skia.Rect.MakeLTRB(3 * i + 0.5, 0, 3 * i + 2.5, H), paint(c, SKIA[m]))
        chunks.append(pixels(surface).tobytes())
    path = os.path.join(root, "Tests/References/blend/skia-blend-card.bin")
    with open(path, "wb") as f:
        f.write(b"".join(chunks))
    print(f"wrote {path}: {len(MODES)} modes of {W}x{H}")


if __name__ == "__main__":
    main()
