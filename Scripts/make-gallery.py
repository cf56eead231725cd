#!/usr/bin/env python3
"""Writes the scene files of Scenes/Gallery: scenes the demo does not have (SCENE.md)."""
import json, math, os, sys

out = sys.argv[1] if len(sys.argv) > 1 else "Scenes/Gallery"  # run from the project root
os.makedirs(out, exist_ok=True)
HUES = ["#FF6B6B", "#4D96FF", "#6BCB77", "#FFD93D", "#C77DFF", "#FF9F45", "#00C2A8", "#F15BB5"]
W, H = 1920, 1080


def text(x, y, w, h, s, size, color="#1C1C1E", weight="regular"):
    return {"type": "text", "frame": [x, y, w, h], "string": s, "fontSize": size,
            "fontWeight": weight, "foregroundColor": color, "truncationMode": "end"}


def button(x, y, w, h, hue):
    return {
        "frame": [x, y, w, h], "shadowOpacity": 0.25, "shadowRadius": 2, "shadowOffset": [0, 1],
        "sublayers": [
            {"type": "gradient", "frame": [0, 0, w, h], "cornerRadius": 6,
             "colors": [hue, "#3A3A3C"], "startPoint": [0, 0], "endPoint": [1, 1]},
            {"type": "gradient", "frame": [0, 0, w, h], "cornerRadius": 6,
             "colors": ["#FFFFFF", hue], "startPoint": [0.5, 0], "endPoint": [0.5, 1],
             "mask": {"type": "shape", "frame": [0, 0, w, h],
                      "path": {"roundedRect": [0.5, 0.5, w - 1, h - 1], "cornerRadius": 6},
                      "fillColor": None, "strokeColor": "#000000", "lineWidth": 1}},
            text(0, h / 2 - 8, w, 18, "OPEN", 12, "#FFFFFF", "bold") | {"alignmentMode": "center"},
        ],
    }


def card(x, y, w, h, i, shadow_path=True, extra=None):
    hue = HUES[i % len(HUES)]
    layer = {
        "frame": [x, y, w, h], "cornerRadius": 16, "shadowOpacity": 0.22, "shadowRadius": 10,
        "shadowOffset": [0, 6],
        "sublayers": [{
            "frame": [0, 0, w, h], "backgroundColor": "#FFFFFF", "cornerRadius": 16, "masksToBounds": True,
            "sublayers": [
                {"frame": [0, 0, w, 56], "backgroundColor": hue},
                text(20, 16, w - 40, 26, f"Card {i + 1}", 20, "#FFFFFF", "bold"),
                text(20, 70, w - 40, 20, "Three lines of text under a clipped header,", 14),
                text(20, 92, w - 40, 20, "with a shadow from an explicit shadowPath and", 14),
                text(20, 114, w - 40, 20, "a gradient button with a stroked-mask border.", 14),
                button(w - 120, h - 52, 100, 34, hue),
            ],
        }],
    }
    if shadow_path:
        layer["shadowPath"] = {"roundedRect": [0, 0, w, h], "cornerRadius": 16}
    if extra:
        layer.update(extra)
    return layer


def write(name, layers, background="#F2F2F7"):
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump({"width": W, "height": H, "background": background, "layers": layers}, f, indent=1)


# 1. Forty 420x220 cards stacked at 92-point steps in four columns (the scene).
write("stacked-cards", [card(40 + c * 470, 20 + r * 92, 420, 220, r * 4 + c) for r in range(10) for c in range(4)])

# 2. A wallet: passes stacked with their headers showing, alpha shadows (no shadowPath).
wallet = []
for s in range(3):
    for i in range(7):
        hue = HUES[(i + s) % len(HUES)]
        wallet.append({
            "type": "gradient", "frame": [60 + s * 620, 40 + i * 64, 560, 340], "cornerRadius": 20,
            "colors": [hue, "#1C1C1E"], "startPoint": [0, 0], "endPoint": [1, 1],
            "shadowOpacity": 0.35, "shadowRadius": 12, "shadowOffset": [0, -4],
            "sublayers": [
                text(24, 18, 300, 26, f"Pass {s * 7 + i + 1}", 20, "#FFFFFF", "bold"),
                text(360, 22, 176, 20, "GATE B{}".format(12 + i), 14, "#FFFFFFCC"),
            ],
        })
write("wallet", wallet, "#E5E5EA")

# 3. 200 small shadowed tiles.
tiles = []
for r in range(10):
    for c in range(20):
        tiles.append({
            "frame": [24 + c * 94, 24 + r * 104, 78, 84], "backgroundColor": "#FFFFFF", "cornerRadius": 12,
            "shadowOpacity": 0.2, "shadowRadius": 4, "shadowOffset": [0, 2],
            "sublayers": [
                {"frame": [23, 14, 32, 32], "backgroundColor": HUES[(r + c) % len(HUES)], "cornerRadius": 16},
                text(4, 54, 70, 18, f"App {r * 20 + c + 1}", 12) | {"alignmentMode": "center"},
            ],
        })
write("tiles", tiles)

# 4. Cards rotated and scaled by transforms.
turned = []
for i in range(12):
    r, c = divmod(i, 4)
    t = {"rotation": (-0.25 + 0.5 * ((i * 7) % 11) / 10), "scale": 0.8 + 0.4 * ((i * 5) % 7) / 6}
    turned.append(card(60 + c * 460, 60 + r * 330, 380, 220, i, shadow_path=(i % 2 == 0), extra={"transform": t}))
write("transformed", turned)

# 5. Overlapping translucent panels.
panels = []
for i in range(9):
    x = 80 + (i % 3) * 520 + (i // 3) * 60
    y = 60 + (i // 3) * 300 + (i % 3) * 30
    panels.append({
        "frame": [x, y, 640, 360], "backgroundColor": HUES[i % len(HUES)] + "99", "cornerRadius": 24,
        "borderWidth": 1, "borderColor": "#FFFFFF80",
        "shadowOpacity": 0.3, "shadowRadius": 16, "shadowOffset": [0, 8], "opacity": 0.9,
        "sublayers": [
            text(28, 24, 580, 34, f"Panel {i + 1}", 26, "#FFFFFF", "bold"),
            {"frame": [28, 80, 584, 240], "backgroundColor": "#FFFFFF40", "cornerRadius": 14},
        ],
    })
write("panels", panels, "#2C2C2E")
