"""The printable A4 calibration sheet: four ArUco markers (DICT_4X4_50, ids 0-3) at known millimetre
positions plus a 100 mm scale bar to check the printer did not scale the page.

``write_mat(path)`` writes a PNG (300 dpi) and, when ``path`` ends in ``.pdf``, a one-page A4 PDF
holding the same bitmap (built with numpy + zlib only; print it at 100 % / "actual size").
"""

from __future__ import annotations

import zlib
from pathlib import Path

import cv2
import numpy as np

from .table import A4_MM, TableConfig, mat_layout
from .whole_file import BY_UMASK, write_whole

__all__ = ["render_marker", "render_mat", "write_mat", "write_pdf_gray"]


def render_marker(marker_id: int, side_px: int, config: TableConfig | None = None) -> np.ndarray:
    """uint8[side, side] image of one ArUco marker of the configured dictionary (1-cell quiet zone not included)."""
    c = config or TableConfig()
    d = cv2.aruco.getPredefinedDictionary(c.aruco_dictionary)
    return cv2.aruco.generateImageMarker(d, int(marker_id), int(side_px), borderBits=1)


def render_mat(dpi: int = 300, config: TableConfig | None = None) -> np.ndarray:
    """uint8[H, W] grayscale bitmap of the A4 calibration sheet at ``dpi``."""
    c = config or TableConfig()
    px_per_mm = dpi / 25.4
    W, H = int(round(A4_MM[0] * px_per_mm)), int(round(A4_MM[1] * px_per_mm))
    img = np.full((H, W), 255, np.uint8)
    layout = mat_layout(c)
    for mid, q in layout.corners_mm.items():
        x0, y0 = q[0] * px_per_mm
        side = int(round(c.mat_marker_mm * px_per_mm))
        m = render_marker(mid, side, c)
        x0, y0 = int(round(x0)), int(round(y0))
        img[y0:y0 + side, x0:x0 + side] = m
        cv2.putText(img, f"id {mid}", (x0, y0 + side + int(6 * px_per_mm)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.12 * px_per_mm, 0, max(1, int(0.3 * px_per_mm)), cv2.LINE_AA)
    # 100 mm scale bar with 10 mm ticks, centred
    y = int(A4_MM[1] / 2 * px_per_mm)
    x0 = int((A4_MM[0] / 2 - 50) * px_per_mm)
    x1 = int((A4_MM[0] / 2 + 50) * px_per_mm)
    t = max(1, int(0.4 * px_per_mm))
    cv2.line(img, (x0, y), (x1, y), 0, t)
    for k in range(11):
        x = int((A4_MM[0] / 2 - 50 + 10 * k) * px_per_mm)
        cv2.line(img, (x, y - int(3 * px_per_mm)), (x, y + int(3 * px_per_mm)), 0, t)
    lines = ["tabletop-companion calibration sheet (A4)", "print at 100% / actual size:",
             "the bar above must measure 100 mm", f"ArUco 4x4_50, markers {c.mat_marker_mm:g} mm"]
    for k, s in enumerate(lines):
        cv2.putText(img, s, (int(40 * px_per_mm), y + int((14 + 8 * k) * px_per_mm)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.13 * px_per_mm, 0, max(1, int(0.25 * px_per_mm)), cv2.LINE_AA)
    return img


def write_pdf_gray(path: str | Path, gray: np.ndarray, page_mm: tuple[float, float] = A4_MM) -> Path:
    """Write ``gray`` (uint8[H, W]) as a one-page PDF filling a page of ``page_mm`` (Flate-compressed DeviceGray), whole
    or not at all (:func:`vision.whole_file.write_whole`: a file already at ``path`` is kept when the writing fails);
    returns ``path``.

    Raises:
        OSError: the file cannot be written (its folder missing, a full card); ``strerror`` is the system's reason.
    """
    path = Path(path)
    h, w = gray.shape
    pw, ph = page_mm[0] / 25.4 * 72.0, page_mm[1] / 25.4 * 72.0
    data = zlib.compress(np.ascontiguousarray(gray, np.uint8).tobytes(), 9)
    content = f"q {pw:.3f} 0 0 {ph:.3f} 0 0 cm /Im0 Do Q".encode()
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw:.3f} {ph:.3f}] "
         f"/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>").encode(),
        (f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray "
         f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n").encode() + data + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for k, body in enumerate(objs, start=1):
        offsets.append(len(out))
        out += f"{k} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    write_whole(path, bytes(out), mode=BY_UMASK, make_folder=False)
    return path


def write_mat(path: str | Path, dpi: int = 300, config: TableConfig | None = None) -> Path:
    """Write the calibration sheet to ``path``: ``.pdf`` -> A4 PDF, anything else -> PNG (300 dpi by default).

    Returns the path written. The file is written whole or not at all (:func:`vision.whole_file.write_whole`): a
    sheet or any file already at ``path`` (``print-mat --force``) is kept when the writing fails (a full card, a
    power cut); its permission bits are as a plain write gives them (the umask).

    Raises:
        OSError: the file cannot be written (``strerror``: the system's reason).
    """
    path = Path(path)
    img = render_mat(dpi, config)
    if path.suffix.lower() == ".pdf":
        return write_pdf_gray(path, img)
    ok, png = cv2.imencode(".png", img, [cv2.IMWRITE_PNG_COMPRESSION, 6])
    if not ok:
        raise OSError(f"could not encode the sheet for {path} as PNG")
    write_whole(path, png.tobytes(), mode=BY_UMASK, make_folder=False)  # an OSError with the system's reason
    return path
