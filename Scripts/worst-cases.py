#!/usr/bin/env python3
"""Writes the scenes of README's table of peaks (Reliability), into the folder given:

    Scripts/worst-cases.py DIR
    for f in DIR/*.json; do /usr/bin/time -v .build/release/sheen render "$f" -o /tmp/x.png; done

shadow-16384: a 16000 x 16000 layer with a shadow (radius 20) on 16384 x 16384; shadow-opacity-16384:
the same with group opacity 0.9 and a translucent sublayer; nested-256: 256 nested groups (opacity
0.99, each 2048 x 2048) at 2048 x 2048; path-far-fill / path-far-stroke: a 1 MB path of cubics
reaching +-200,000 px over 100 x 100, filled / stroked (width 3); path-near-stroke: the same number
of cubics within +-100 px of the canvas, stroked; string-1mib: a 1 MiB string wrapped in a
200 x 100 text layer.
"""
import json
import os
import random
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "."
os.makedirs(out, exist_ok=True)


def write(name, doc):
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(doc, f)


card = {"frame": [192, 192, 16000, 16000], "backgroundColor": "#3366CC", "cornerRadius": 40,
        "shadowOpacity": 0.5, "shadowRadius": 20, "shadowOffset": [0, 8]}
write("shadow-16384", {"width": 16384, "height": 16384, "layers": [card]})
grouped = dict(card, opacity=0.9, sublayers=[{"frame": [100, 100, 15000, 15000], "backgroundColor": "#FF000080"}])
write("shadow-opacity-16384", {"width": 16384, "height": 16384, "layers": [grouped]})
layer = {"frame": [0, 0, 2048, 2048], "backgroundColor": "#00FF0010"}
for _ in range(255):
    layer = {"frame": [0, 0, 2048, 2048], "opacity": 0.99, "backgroundColor": "#0000FF08", "sublayers": [layer]}
write("nested-256", {"width": 2048, "height": 2048, "layers": [layer]})


def path(reach, size):
    rnd = random.Random(1)
    parts = ["M50 50"]
    n = 0
    while n < size:
        c = " ".join(f"{rnd.uniform(-reach, reach) + 50:.1f}" for _ in range(6))
        parts.append("C" + c)
        n += len(c) + 2
    return " ".join(parts)


far = path(200_000, 1_000_000)
near = path(100, len(far))
nc = near.count("C")
write("path-far-fill", {"width": 100, "height": 100, "layers": [
    {"type": "shape", "frame": [0, 0, 100, 100], "path": far, "fillColor": "#000000"}]})
write("path-far-stroke", {"width": 100, "height": 100, "layers": [
    {"type": "shape", "frame": [0, 0, 100, 100], "path": far, "fillColor": None, "strokeColor": "#000000",
     "lineWidth": 3}]})
write("path-near-stroke", {"width": 100, "height": 100, "layers": [
    {"type": "shape", "frame": [0, 0, 100, 100], "path": near, "fillColor": None, "strokeColor": "#000000",
     "lineWidth": 3}]})
write("string-1mib", {"width": 200, "height": 100, "layers": [
    {"type": "text", "frame": [0, 0, 200, 100], "isWrapped": True, "string": ("word " * 209716)[:1048576]}]})
print(f"far path: {len(far)} bytes, {far.count('C')} cubics; near path: {len(near)} bytes, {nc} cubics")
