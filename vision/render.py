"""Synthetic overhead views of a draughts board: the simulated camera the tests and benchmarks use.

A pinhole camera on a stand at one side of the table looks down at the board
(the oblique view a king needs to be told from a man, see docs/camera.md).
The world is measured in squares: the board spans ``[0, n] x [0, n]`` as white
sees it (x = file, y = rank), a wooden frame ``FRAME`` squares wide around it,
ArUco markers (DICT_4X4_50) centred ``MARKER_OFFSET`` squares outside each board
corner on the frame: id 0 at white's bottom-left, 1 bottom-right, 2 top-right,
3 top-left. Men are cylinders ``PIECE_H`` high; a king is two stacked men.
On top of the geometry: lens distortion, uneven and drifting light, a shadow
band, glare, blur, sensor noise, JPEG, pieces placed off-centre, and hands
(with their arm) reaching, carrying or placing a piece. Every scene is drawn
from a seed, so a test set is made again, never stored.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np

from rig.variants import Variant

__all__ = ["Camera", "Lighting", "Hand", "Scene", "random_scene", "render", "hidden_area", "SIDES", "SKINS", "SLEEVES",
           "drift", "FRAME", "MARKER_OFFSET", "MARKER_SIZE", "PIECE_R", "PIECE_H"]

FRAME = 1.3          # frame width around the board, squares
MARKER_OFFSET = 0.65 # marker centre outside each board corner, squares (both axes)
MARKER_SIZE = 0.9    # marker side, squares
PIECE_R = 0.38       # piece radius, squares
PIECE_H = 0.2        # a man's height, squares
SIDES = ("bottom", "left", "top", "right")  # where white sits in the picture
SHADOW_SLOPE = (0.3, -0.3)  # a contact shadow's reach per square of a piece's height (the room's lamp)

PALETTES = (  # light square, dark square, frame (RGB)
    ((236, 212, 168), (112, 74, 50), (176, 132, 84)),
    ((228, 222, 178), (62, 108, 74), (150, 112, 70)),
    ((240, 218, 176), (128, 86, 56), (60, 44, 34)),
)
WHITE_PIECE = ((238, 237, 232), (200, 199, 196), (212, 211, 206))  # top, side, groove
BLACK_PIECE = ((44, 42, 40), (26, 25, 25), (70, 68, 66))
SKINS = ((236, 196, 170), (214, 164, 130), (178, 122, 88), (120, 80, 58), (92, 62, 48))
#: sleeves (RGB; None: a bare arm): a white shirt, navy, grey, black, and a beige and a brown knit, the
#: colours of the light and dark squares
SLEEVES = (None, None, (232, 232, 228), (40, 48, 84), (128, 128, 130), (30, 30, 32), (222, 200, 160),
           (112, 76, 52))


@dataclass(frozen=True)
class Camera:
    """Pinhole camera on a stand: where white sits in the picture, the stand's direction off that side
    (radians) and distance, height, focal length (pixels), image size, radial distortion ``k1``."""

    side: str = "bottom"
    azimuth: float = 0.0    # the stand's direction, radians off the side's own
    distance: float = 1.0   # horizontal, board sizes from the board centre
    height: float = 1.25    # board sizes
    focal: float = 900.0
    width: int = 1280
    height_px: int = 720
    k1: float = 0.0
    aim: tuple[float, float] = (0.0, 0.0)  # aim point offset from the board centre, squares


@dataclass(frozen=True)
class Lighting:
    level: float = 1.0
    gradient: tuple[float, float] = (0.0, 0.0)      # gain slope across the picture (x, y)
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    band: tuple[float, float, float, float] | None = None  # shadow band: angle, offset px, width px, depth
    glare: tuple[float, float, float, float] | None = None  # x px, y px, radius px, strength
    blur: float = 0.0
    noise: float = 2.0
    jpeg: int = 92


@dataclass(frozen=True)
class Hand:
    """A hand (and its arm, from ``side_y`` = -1 white's side / +1 black's) at board point ``at`` and height
    ``z`` (squares); ``carrying`` a piece code held under the fingers, or None."""

    at: tuple[float, float]
    z: float = 2.0
    side_y: int = -1
    skin: tuple[int, int, int] = SKINS[1]
    carrying: str | None = None
    angle: float = 0.0
    sleeve: tuple[int, int, int] | None = None  # the sleeve's colour from a little above the wrist; None: bare


@dataclass(frozen=True)
class Scene:
    variant: Variant
    pieces: dict[int, str]                              # square -> w/W/b/B
    offsets: dict[int, tuple[float, float]] = field(default_factory=dict)  # off-centre placement, squares
    camera: Camera = Camera()
    light: Lighting = Lighting()
    markers: bool = True
    palette: int = 0
    hands: tuple[Hand, ...] = ()
    table: tuple[int, int, int] = (110, 112, 118)
    seed: int = 0


# --------------------------------------------------------------------------- camera geometry


STAND = {"bottom": -math.pi / 2, "top": math.pi / 2, "left": 0.0, "right": math.pi}  # stand direction


def _pose(cam: Camera, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(K, R, C): intrinsics, world->camera rotation, camera centre. The stand is on the side of the table
    that puts white on ``cam.side`` of the picture (the far side of the board at the top)."""
    az = STAND[cam.side] + cam.azimuth
    centre = np.array([n / 2 + cam.aim[0], n / 2 + cam.aim[1], 0.0])
    pos = np.array([n / 2 + math.cos(az) * cam.distance * n, n / 2 + math.sin(az) * cam.distance * n,
                    cam.height * n])
    fwd = centre - pos
    fwd /= np.linalg.norm(fwd)
    right = np.array([fwd[1], -fwd[0], 0.0])
    right /= np.linalg.norm(right)
    down = np.cross(fwd, right)
    R = np.stack([right, down, fwd])
    K = np.array([[cam.focal, 0, cam.width / 2], [0, cam.focal, cam.height_px / 2], [0, 0, 1.0]])
    return K, R, pos


class _Projector:
    def __init__(self, cam: Camera, n: int):
        self.K, self.R, self.C = _pose(cam, n)
        # the focal length is at most what keeps the frame (and its markers) inside the picture
        e = FRAME + 0.05
        pc = (np.array([[-e, -e, 0], [n + e, -e, 0], [n + e, n + e, 0], [-e, n + e, 0]]) - self.C) @ self.R.T
        xy = np.abs(pc[:, :2] / pc[:, 2:3])
        fit = min(0.94 * cam.width / 2 / xy[:, 0].max(), 0.94 * cam.height_px / 2 / xy[:, 1].max())
        self.K[0, 0] = self.K[1, 1] = min(cam.focal, fit)

    def __call__(self, pts: np.ndarray) -> np.ndarray:
        """World points (N, 3) -> pixel coordinates (N, 2), before lens distortion."""
        pc = (np.asarray(pts, float) - self.C) @ self.R.T
        uv = pc[:, :2] / pc[:, 2:3]
        return uv * self.K[0, 0] + self.K[:2, 2]


def _circle(cx: float, cy: float, z: float, r: float, k: int = 28) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, k, endpoint=False)
    return np.stack([cx + r * np.cos(a), cy + r * np.sin(a), np.full(k, z)], axis=1)


def _poly(img: np.ndarray, pts: np.ndarray, colour) -> None:
    cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], colour, cv2.LINE_AA, shift=4)


def _hull(img: np.ndarray, pts: np.ndarray, colour) -> None:
    hull = cv2.convexHull(np.round(pts * 16).astype(np.int32))
    cv2.fillConvexPoly(img, hull, colour, cv2.LINE_AA, shift=4)


# --------------------------------------------------------------------------- drawing


def _draw_piece(img, proj, x, y, code, z0=0.0, solid=None):
    """A man (cylinder) or a king (two stacked men, the seam between them visible); all in ``solid`` when
    given (a mask of what the piece covers)."""
    top, side, groove = WHITE_PIECE if code.lower() == "w" else BLACK_PIECE
    if solid is not None:
        top = side = groove = solid
    layers = 2 if code.isupper() else 1
    for k in range(layers):
        lo, hi = z0 + k * PIECE_H, z0 + (k + 1) * PIECE_H
        base, cap = proj(_circle(x, y, lo, PIECE_R)), proj(_circle(x, y, hi, PIECE_R))
        _hull(img, np.vstack([base, cap]), side)
        if k < layers - 1:
            cv2.polylines(img, [np.round(cap * 16).astype(np.int32)], True, groove, 1, cv2.LINE_AA, shift=4)
    zt = z0 + layers * PIECE_H
    _poly(img, proj(_circle(x, y, zt, PIECE_R)), top)
    ring = proj(_circle(x, y, zt, PIECE_R * 0.72))
    cv2.polylines(img, [np.round(ring * 16).astype(np.int32)], True, groove, 1, cv2.LINE_AA, shift=4)


def _cast_shadow(mask: np.ndarray, proj, x: float, y: float, layers: int) -> None:
    """The contact shadow of a stack ``layers`` men high: the base's disc swept to the top's shadow, cast
    ``SHADOW_SLOPE`` squares a square of height away from the lamp (a king's is twice as long)."""
    h = layers * PIECE_H
    base = _circle(x + SHADOW_SLOPE[0] * 0.1, y + SHADOW_SLOPE[1] * 0.1, 0, PIECE_R * 1.08)
    tip = _circle(x + SHADOW_SLOPE[0] * h, y + SHADOW_SLOPE[1] * h, 0, PIECE_R * 1.08)
    _hull(mask, proj(np.vstack([base, tip])), 255)


def _draw_markers(img, proj, n):
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    px = 60
    for mid, (cx, cy) in enumerate(((-MARKER_OFFSET, -MARKER_OFFSET), (n + MARKER_OFFSET, -MARKER_OFFSET),
                                    (n + MARKER_OFFSET, n + MARKER_OFFSET), (-MARKER_OFFSET, n + MARKER_OFFSET))):
        tile = cv2.aruco.generateImageMarker(d, mid, px, borderBits=1)
        tile = cv2.copyMakeBorder(tile, 10, 10, 10, 10, cv2.BORDER_CONSTANT, value=255)
        s = MARKER_SIZE / 2 * (px + 20) / px
        # marker image corners: top-left, top-right, bottom-right, bottom-left as white sees it
        world = np.array([[cx - s, cy + s, 0], [cx + s, cy + s, 0], [cx + s, cy - s, 0], [cx - s, cy - s, 0]])
        dst = proj(world).astype(np.float32)
        h = px + 20
        src = np.float32([[0, 0], [h, 0], [h, h], [0, h]])
        x0, y0 = np.floor(dst.min(axis=0)).astype(int)
        x1, y1 = np.ceil(dst.max(axis=0)).astype(int) + 1
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, img.shape[1]), min(y1, img.shape[0])
        if x1 <= x0 or y1 <= y0:
            continue
        M = cv2.getPerspectiveTransform(src, dst - np.float32([x0, y0]))
        size = (x1 - x0, y1 - y0)
        warped = cv2.warpPerspective(cv2.cvtColor(tile, cv2.COLOR_GRAY2RGB), M, size, flags=cv2.INTER_LINEAR)
        mask = cv2.warpPerspective(np.full((h, h), 255, np.uint8), M, size) > 128
        img[y0:y1, x0:x1][mask] = warped[mask]


def _draw_hand(img, proj, hand: Hand, n: int, solid=None):
    """Arm from the player's side to the wrist, palm, four fingers and a thumb, at height ``z``; all in
    ``solid`` when given (a mask of what the hand hides)."""
    x, y = hand.at
    skin = tuple(int(c) for c in hand.skin) if solid is None else solid
    dark = tuple(int(c * 0.82) for c in skin) if solid is None else solid
    ca, sa = math.cos(hand.angle), math.sin(hand.angle)

    def w(px, py, z=hand.z):  # hand frame (fingers towards -side_y) -> world
        fy = -hand.side_y
        return (x + ca * px - sa * py * fy, y + sa * px + ca * py * fy, z)

    if hand.carrying:
        _draw_piece(img, proj, *w(0, 0.7)[:2], hand.carrying, z0=max(0.0, hand.z - 0.45), solid=solid)
    wrist = w(0, -0.9)
    far = (wrist[0], y + hand.side_y * (n + 6), hand.z + 3.0)
    for _ in range(20):  # the arm ends before it would pass behind the camera
        if float(((np.array(far) - proj.C) @ proj.R.T)[2]) > 0.5:
            break
        far = tuple((np.array(far) + np.array(wrist)) / 2)
    arm = np.array([[wrist[0] - 0.55, wrist[1], wrist[2]], [wrist[0] + 0.55, wrist[1], wrist[2]],
                    [far[0] + 0.8, far[1], far[2]], [far[0] - 0.8, far[1], far[2]]])
    pts = proj(arm)
    if np.all(np.isfinite(pts)):
        _hull(img, pts, dark)
        if hand.sleeve is not None:  # the cuff a hand's length up the forearm, the sleeve wider
            cuff = np.array(wrist) + (np.array(far) - np.array(wrist)) * 0.12
            sleeve = np.array([[cuff[0] - 0.65, cuff[1], cuff[2]], [cuff[0] + 0.65, cuff[1], cuff[2]],
                               [far[0] + 0.9, far[1], far[2]], [far[0] - 0.9, far[1], far[2]]])
            _hull(img, proj(sleeve), tuple(int(c) for c in hand.sleeve) if solid is None else solid)
    palm = np.array([w(0.75 * math.cos(a), 0.9 * math.sin(a) - 0.1) for a in np.linspace(0, 2 * math.pi, 24)])
    _poly(img, proj(palm), skin)
    for k, fx in enumerate((-0.5, -0.17, 0.17, 0.5)):
        ln = 0.75 + 0.1 * (k in (1, 2))
        finger = np.array([w(fx + 0.14 * math.cos(a), 0.7 + ln / 2 + ln / 2 * math.sin(a)) for a in
                           np.linspace(0, 2 * math.pi, 16)])
        _poly(img, proj(finger), skin)
    thumb = np.array([w(-0.85 + 0.16 * math.cos(a), 0.1 + 0.45 * math.sin(a)) for a in np.linspace(0, 2 * math.pi, 16)])
    _poly(img, proj(thumb), dark)


# --------------------------------------------------------------------------- the picture


@lru_cache(maxsize=8)
def _distortion_maps(w: int, h: int, focal: float, k1: float) -> tuple[np.ndarray, np.ndarray]:
    u, v = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    x, y = (u - w / 2) / focal, (v - h / 2) / focal
    f = 1 + k1 * (x * x + y * y)
    return x * f * focal + w / 2, y * f * focal + h / 2


def _distort(img: np.ndarray, cam: Camera) -> np.ndarray:
    if abs(cam.k1) < 1e-6:
        return img
    h, w = img.shape[:2]
    mx, my = _distortion_maps(w, h, cam.focal, cam.k1)
    return cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


@lru_cache(maxsize=1)
def _noise_tile() -> np.ndarray:
    return np.random.default_rng(12345).standard_normal((1024, 1536, 3)).astype(np.float32)


def _light(img: np.ndarray, light: Lighting, rng: np.random.Generator) -> np.ndarray:
    """Gain field (level, gradient, shadow band) and glare, computed at a quarter size (they are smooth)."""
    h, w = img.shape[:2]
    q = 4
    yy, xx = (np.mgrid[0:(h + q - 1) // q, 0:(w + q - 1) // q].astype(np.float32) * q + q / 2)
    gain = light.level * (1 + light.gradient[0] * (xx / w - 0.5) * 2 + light.gradient[1] * (yy / h - 0.5) * 2)
    if light.band is not None:
        ang, off, width, depth = light.band
        d = (xx - w / 2) * math.cos(ang) + (yy - h / 2) * math.sin(ang) - off
        inside = 1 / (1 + np.exp(np.clip((np.abs(d) - width / 2) / 6.0, -50, 50)))
        gain = gain * (1 - depth * inside)
    gain = cv2.resize(gain.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    out = img.astype(np.float32)
    out *= gain[..., None]
    out *= np.array(light.tint, np.float32)
    if light.glare is not None:
        gx, gy, gr, gs = light.glare
        glare = (gs * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * gr * gr))).astype(np.float32)
        out += cv2.resize(glare, (w, h), interpolation=cv2.INTER_LINEAR)[..., None]
    if light.blur > 0.05:
        out = cv2.GaussianBlur(out, (0, 0), light.blur)
    tile = _noise_tile()
    y0, x0 = int(rng.integers(0, tile.shape[0] - h + 1)), int(rng.integers(0, tile.shape[1] - w + 1))
    out += tile[y0:y0 + h, x0:x0 + w] * np.float32(light.noise)
    np.clip(out, 0, 255, out=out)
    return out.astype(np.uint8)


def _shade(img: np.ndarray, mask: np.ndarray, depth: float) -> np.ndarray:
    """Darken ``img`` by up to ``depth`` where the (blurred, 0..255) ``mask`` is."""
    factor = 1 - depth * mask.astype(np.float32) / 255.0
    return cv2.multiply(img, cv2.merge([factor, factor, factor]), dtype=cv2.CV_8U)


def render(scene: Scene, cover: bool = False):
    """The scene as the camera sees it: a BGR ``uint8`` image (JPEG-compressed when ``light.jpeg``);
    with ``cover``, also how much of the playable board the hands hide (:func:`hidden_area`), in squares."""
    v = scene.variant
    n = v.size
    cam = scene.camera
    proj = _Projector(cam, n)
    img = np.empty((cam.height_px, cam.width, 3), np.uint8)
    img[:] = scene.table
    light_c, dark_c, frame_c = PALETTES[scene.palette % len(PALETTES)]
    b = FRAME
    _poly(img, proj(np.array([[-b, -b, 0], [n + b, -b, 0], [n + b, n + b, 0], [-b, n + b, 0]])), frame_c)
    grain = random.Random(hash((n, scene.palette, scene.table)))  # one board's squares: the same every picture
    for f in range(n):
        for r in range(n):
            base = dark_c if v.is_dark(f, r) else light_c
            c = tuple(int(min(255, max(0, ch + grain.uniform(-5, 5)))) for ch in base)
            _poly(img, proj(np.array([[f, r, 0], [f + 1, r, 0], [f + 1, r + 1, 0], [f, r + 1, 0]])), c)
    if scene.markers:
        _draw_markers(img, proj, n)
    # pieces, the farthest from the camera first; a soft contact shadow under each
    shadow = np.zeros(img.shape[:2], np.uint8)
    placed = []
    for sq, code in scene.pieces.items():
        f, r = v.coords(sq)
        dx, dy = scene.offsets.get(sq, (0.0, 0.0))
        placed.append((f + 0.5 + dx, r + 0.5 + dy, code))
        _cast_shadow(shadow, proj, f + 0.5 + dx, r + 0.5 + dy, 2 if code.isupper() else 1)
    img = _shade(img, cv2.GaussianBlur(shadow, (0, 0), 3.0), 0.35)
    placed.sort(key=lambda p: -np.hypot(p[0] - proj.C[0], p[1] - proj.C[1]))
    for x, y, code in placed:
        _draw_piece(img, proj, x, y, code)
    if scene.hands:
        for hand in scene.hands:  # the hand's soft shadow on the board
            hs = np.zeros(img.shape[:2], np.uint8)
            _poly(hs, proj(_circle(hand.at[0] + 0.4, hand.at[1] - 0.4, 0, 1.1)), 255)
            img = _shade(img, cv2.GaussianBlur(hs, (0, 0), 8.0), 0.3)
        for hand in scene.hands:
            _draw_hand(img, proj, hand, n)
    img = _distort(img, cam)
    img = _light(img, scene.light, np.random.default_rng(scene.seed))
    img = cv2.cvtColor(img, cv2.COLOR_RGB2BGR)
    if scene.light.jpeg:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(scene.light.jpeg)])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return (img, hidden_area(scene)) if cover else img


def hidden_area(scene: Scene) -> float:
    """How much of the playable board the scene's hands (arm, sleeve, a carried piece) hide in the picture, in
    squares: the pixels of the dark squares and of the pieces standing on the board (a piece's side and top
    reach beyond its square in perspective) that a hand is drawn over, at half a pixel's coverage. 0: the
    board's playable part is all in view (a hand may still be in the picture, over the frame or light
    squares only)."""
    if not scene.hands:
        return 0.0
    v = scene.variant
    n = v.size
    cam = scene.camera
    proj = _Projector(cam, n)
    shape = (cam.height_px, cam.width)
    board, playable, hands = (np.zeros(shape, np.uint8) for _ in range(3))
    _poly(board, proj(np.array([[0, 0, 0], [n, 0, 0], [n, n, 0], [0, n, 0]], float)), 255)
    for f in range(n):
        for r in range(n):
            if v.is_dark(f, r):
                _poly(playable, proj(np.array([[f, r, 0], [f + 1, r, 0], [f + 1, r + 1, 0], [f, r + 1, 0]])), 255)
    for sq, code in scene.pieces.items():
        f, r = v.coords(sq)
        dx, dy = scene.offsets.get(sq, (0.0, 0.0))
        _draw_piece(playable, proj, f + 0.5 + dx, r + 0.5 + dy, code, solid=255)
    for hand in scene.hands:
        _draw_hand(hands, proj, hand, n, solid=255)
    hidden = cv2.countNonZero(((playable >= 128) & (hands >= 128)).astype(np.uint8))
    return hidden / (cv2.countNonZero((board >= 128).astype(np.uint8)) / (n * n))


# --------------------------------------------------------------------------- random scenes


def random_camera(rng: random.Random, side: str | None = None) -> Camera:
    """A stand at a random side of the table, 30-45 degrees from vertical, white on any side of the picture."""
    side = side or rng.choice(SIDES)
    return Camera(side=side, azimuth=rng.uniform(-0.35, 0.35), distance=rng.uniform(0.9, 1.05),
                  height=rng.uniform(1.15, 1.35), focal=rng.uniform(1000, 1400), k1=rng.uniform(-0.08, 0.03),
                  aim=(rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3)))


def random_lighting(rng: random.Random, hard: bool = True) -> Lighting:
    band = glare = None
    if hard and rng.random() < 0.4:
        band = (rng.uniform(0, math.pi), rng.uniform(-200, 200), rng.uniform(60, 180), rng.uniform(0.2, 0.45))
    if hard and rng.random() < 0.3:
        glare = (rng.uniform(300, 980), rng.uniform(150, 570), rng.uniform(30, 70), rng.uniform(30, 70))
    return Lighting(level=rng.uniform(0.7, 1.0) if hard else rng.uniform(0.72, 0.9),
                    gradient=(rng.uniform(-0.15, 0.15), rng.uniform(-0.15, 0.15)),
                    tint=(rng.uniform(0.95, 1.05), 1.0, rng.uniform(0.93, 1.05)), band=band, glare=glare,
                    blur=rng.uniform(0, 1.3) if hard else 0.4, noise=rng.uniform(1.5, 5.0) if hard else 2.0,
                    jpeg=rng.choice((70, 80, 90, 95)) if hard else 95)


def drift(light: Lighting, rng: random.Random, amount: float = 0.05) -> Lighting:
    """The same room a moment later: level and gradient drift a little, a passing shadow or glare may change."""
    return replace(light, level=max(0.6, min(1.2, light.level * (1 + rng.uniform(-amount, amount)))),
                   gradient=(light.gradient[0] + rng.uniform(-amount, amount) / 2,
                             light.gradient[1] + rng.uniform(-amount, amount) / 2))


def random_offsets(rng: random.Random, squares, spread: float = 0.12) -> dict[int, tuple[float, float]]:
    return {s: (rng.uniform(-spread, spread), rng.uniform(-spread, spread)) for s in squares}


def random_scene(variant: Variant, pieces: dict[int, str], seed: int, *, markers: bool | None = None,
                 side: str | None = None, hard: bool = True) -> Scene:
    rng = random.Random(seed)
    return Scene(variant, dict(pieces), random_offsets(rng, pieces), random_camera(rng, side),
                 random_lighting(rng, hard), rng.random() < 0.5 if markers is None else markers,
                 rng.randrange(len(PALETTES)), table=tuple(rng.randrange(70, 160) for _ in range(3)), seed=seed)
