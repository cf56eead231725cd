#!/usr/bin/env python3
"""Makes the image files of Tests/Scenes/images and Assets/Photos (Pillow, numpy).

  Scripts/make-image-fixtures.py SKIMAGE_DATA_DIR

SKIMAGE_DATA_DIR holds scikit-image's sample photos (public domain / CC0: `pip download
scikit-image --no-deps` and unzip skimage/data from the wheel). The output is deterministic for
one Pillow version; the files are committed, so this runs only to change them.
"""
import io
import os
import sys

import numpy as np
from PIL import Image

data = sys.argv[1]
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
tests = os.path.join(root, "Tests", "Scenes", "images")
photos = os.path.join(root, "Assets", "Photos")
os.makedirs(tests, exist_ok=True)
os.makedirs(photos, exist_ok=True)


def photo(name):
    return Image.open(os.path.join(data, name)).convert("RGB")


def exif_with_orientation(o):
    e = Image.Exif()
    e[0x0112] = o
    return e.tobytes()


# --- the demo's photos: small JPEGs (a card header is at most ~400 x 160 points) ---
for name, src, size in [("astronaut", "astronaut.png", (320, 320)), ("coffee", "coffee.png", (400, 267)),
                        ("chelsea", "chelsea.png", (400, 266)), ("rocket", "rocket.jpg", (267, 400))]:
    im = photo(src).resize(size, Image.LANCZOS)
    im.save(os.path.join(photos, name + ".jpg"), quality=88, optimize=True)

# --- test files ---
coffee = photo("coffee.png").resize((200, 133), Image.LANCZOS)
coffee.save(os.path.join(tests, "photo.jpg"), quality=92)
coffee.save(os.path.join(tests, "photo-progressive.jpg"), quality=92, progressive=True)
coffee.convert("L").save(os.path.join(tests, "grey.jpg"), quality=92)
coffee.convert("CMYK").save(os.path.join(tests, "cmyk.jpg"), quality=95)
# The same picture stored turned, with the EXIF orientation that turns it upright again.
stored = {3: coffee.transpose(Image.ROTATE_180), 6: coffee.transpose(Image.ROTATE_90),
          8: coffee.transpose(Image.ROTATE_270), 2: coffee.transpose(Image.FLIP_LEFT_RIGHT),
          5: coffee.transpose(Image.TRANSPOSE), 7: coffee.transpose(Image.TRANSVERSE),
          4: coffee.transpose(Image.FLIP_TOP_BOTTOM)}
for o, im in stored.items():
    im.save(os.path.join(tests, f"exif{o}.jpg"), quality=92, exif=exif_with_orientation(o))

astro = photo("astronaut.png")
astro.resize((256, 256), Image.LANCZOS).save(os.path.join(tests, "astronaut.png"), optimize=True)

# An alpha PNG: a soft disc with a coloured rim over transparency.
y, x = np.mgrid[0:96, 0:128]
d = np.hypot((x - 64) / 60, (y - 48) / 44)
a = np.clip((1.0 - d) * 4, 0, 1)
rgb = np.stack([128 + 120 * np.sin(x / 9), 128 + 120 * np.cos(y / 7), 200 - 150 * d.clip(0, 1)], -1)
rgba = np.concatenate([rgb.clip(0, 255), (a * 255)[..., None]], -1).astype(np.uint8)
Image.fromarray(rgba, "RGBA").save(os.path.join(tests, "alpha.png"))
# Pillow writes no interlaced PNG: ImageMagick does (Adam7).
import subprocess
subprocess.run(["convert", os.path.join(tests, "alpha.png"), "-interlace", "PNG",
                os.path.join(tests, "alpha-interlaced.png")], check=True)
# 16 bits per sample (grey and RGBA): the high byte is what shows.
g16 = (np.mgrid[0:40, 0:64][1] * 1040 + 255).astype(np.uint16)
Image.fromarray(g16).save(os.path.join(tests, "grey16.png"))
# Grey with alpha, a palette with transparency, and one bit per pixel.
la = np.stack([(x[:40, :64] * 4).astype(np.uint8), (y[:40, :64] * 6).astype(np.uint8)], -1)
Image.fromarray(la, "LA") if False else Image.fromarray(la).save(os.path.join(tests, "grey-alpha.png"))
pal = Image.fromarray(rgba, "RGBA").quantize(16)
pal.save(os.path.join(tests, "palette.png"), transparency=0)
Image.fromarray((x[:32, :48] // 4 + y[:32, :48] // 4) % 2 == 0).save(os.path.join(tests, "bits1.png"))

# A checkerboard of colours for nearest and linear magnification and minification.
c = np.zeros((16, 16, 3), np.uint8)
for j in range(16):
    for i in range(16):
        c[j, i] = (255, 64, 32) if (i + j) % 2 else (20, 90 + 10 * i, 255 - 12 * j)
Image.fromarray(c, "RGB").save(os.path.join(tests, "checker.png"))
# Fine stripes: what heavy minification must average, not alias.
s = np.zeros((256, 256, 3), np.uint8)
s[:, ::2] = (250, 250, 250)
s[::3, :] = (30, 60, 200)
Image.fromarray(s, "RGB").save(os.path.join(tests, "stripes.png"))

# A sprite sheet: four 32 x 32 cells, each its own shape and colour, touching one another.
sheet = np.zeros((32, 128, 4), np.uint8)
cols = [(230, 60, 60), (60, 200, 90), (60, 90, 230), (240, 200, 40)]
for k, col in enumerate(cols):
    cell = sheet[:, 32 * k:32 * k + 32]
    yy, xx = np.mgrid[0:32, 0:32]
    inside = [np.hypot(xx - 15.5, yy - 15.5) < 14, (abs(xx - 15.5) < 12) & (abs(yy - 15.5) < 12),
              abs(xx - 15.5) + abs(yy - 15.5) < 15, (yy > 4) & (abs(xx - 15.5) < (yy - 4) * 0.55)][k]
    cell[inside] = (*col, 255)
    cell[~inside] = (*cols[(k + 1) % 4], 255)  # neighbours of another colour: any bleed shows
Image.fromarray(sheet, "RGBA").save(os.path.join(tests, "sprites.png"))

# A nine-part bubble: 36 x 36, corners rounded with radius 12, a 3-pixel rim.
yy, xx = np.mgrid[0:36, 0:36] + 0.5
def rounded(inset, r):
    cx = np.clip(xx, inset + r, 36 - inset - r)
    cy = np.clip(yy, inset + r, 36 - inset - r)
    return np.clip(r - np.hypot(xx - cx, yy - cy) + 0.5, 0, 1)
outer = rounded(0, 12)
inner = rounded(3, 9)
rgb = np.where(inner[..., None] > 0.5, np.array([235, 245, 255]), np.array([40, 110, 220]))
rgba = np.concatenate([rgb, (outer * 255)[..., None]], -1).astype(np.uint8)
Image.fromarray(rgba, "RGBA").save(os.path.join(tests, "bubble.png"))

# Broken files: cut short, not an image at all, corrupt inside.
jpg = open(os.path.join(tests, "photo.jpg"), "rb").read()
png = open(os.path.join(tests, "alpha.png"), "rb").read()
broken = os.path.join(root, "Tests", "Scenes", "images", "broken")
os.makedirs(broken, exist_ok=True)
open(os.path.join(broken, "truncated.jpg"), "wb").write(jpg[: len(jpg) // 2])
open(os.path.join(broken, "truncated.png"), "wb").write(png[: len(png) // 2])
open(os.path.join(broken, "text.png"), "wb").write(b"this is not an image\n")
bad = bytearray(png)
bad[60:80] = b"\x00" * 20
open(os.path.join(broken, "corrupt.png"), "wb").write(bytes(bad))
open(os.path.join(broken, "empty.jpg"), "wb").write(b"")
# A PNG header claiming 20000 x 10 pixels (over the side limit), nothing after it.
import struct, zlib
ihdr = struct.pack(">IIBBBBB", 20000, 10, 8, 6, 0, 0, 0)
chunk = struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
open(os.path.join(broken, "huge.png"), "wb").write(b"\x89PNG\r\n\x1a\n" + chunk)
print("made", tests, photos)
