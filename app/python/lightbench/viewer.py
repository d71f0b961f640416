"""lightbench.viewer: push images into a running viewer's panes (`lightbench --listen`), in the
packet format of the tev image viewer (../shared/specs/python-api.md, "The viewer's remote port").
"""
import socket
import struct

import numpy as np

DEFAULT_PORT = 14158

_OPEN_IMAGE, _RELOAD_IMAGE, _CLOSE_IMAGE, _CREATE_IMAGE, _UPDATE_IMAGE = 7, 1, 2, 4, 6


def _string(s):
    b = s.encode("utf-8")
    if b"\0" in b:
        raise ValueError("names may not contain NUL")
    return b + b"\0"


class Client:
    """A connection to a viewer's remote port (default 127.0.0.1:14158). Images sent here become
    pane sources named remote:NAME."""

    def __init__(self, host="127.0.0.1", port=DEFAULT_PORT, timeout=10.0):
        self._sock = socket.create_connection((host, port), timeout=timeout)

    def close(self):
        self._sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _send(self, type_byte, body):
        self._sock.sendall(struct.pack("<IB", len(body) + 5, type_byte) + body)

    def create_image(self, name, width, height, channels=("R",), grab_focus=False):
        body = struct.pack("<?", grab_focus) + _string(name) + struct.pack("<iii", width, height, len(channels))
        body += b"".join(_string(c) for c in channels)
        self._send(_CREATE_IMAGE, body)

    def update_image(self, name, image, channels=None, x=0, y=0, grab_focus=False):
        """Sends a float image tile (HxW or HxWxC) at (x, y); channel names default to R, G, B, A."""
        a = np.asarray(image, dtype=np.float32)
        if a.ndim == 2:
            a = a[:, :, None]
        if a.ndim != 3:
            raise ValueError("image: expected HxW or HxWxC")
        h, w, c = a.shape
        names = list(channels) if channels is not None else ["R", "G", "B", "A"][:c]
        if len(names) != c:
            raise ValueError("channels: one name per channel")
        planar = np.ascontiguousarray(np.moveaxis(a, 2, 0)).reshape(c, h * w)
        body = struct.pack("<?", grab_focus) + _string(name) + struct.pack("<i", c)
        body += b"".join(_string(n) for n in names)
        body += struct.pack("<iiii", x, y, w, h)
        body += struct.pack(f"<{c}q", *[i * h * w for i in range(c)])
        body += struct.pack(f"<{c}q", *([1] * c))
        body += planar.tobytes()
        self._send(_UPDATE_IMAGE, body)

    def show(self, name, image, grab_focus=True):
        """Creates the image and sends its pixels in one go."""
        a = np.asarray(image, dtype=np.float32)
        channels = ("R",) if a.ndim == 2 else ("R", "G", "B", "A")[: a.shape[2]]
        self.create_image(name, a.shape[1], a.shape[0], channels, grab_focus)
        self.update_image(name, a, channels, grab_focus=grab_focus)

    def close_image(self, name):
        self._send(_CLOSE_IMAGE, _string(name))

    def reload_image(self, name, grab_focus=False):
        self._send(_RELOAD_IMAGE, struct.pack("<?", grab_focus) + _string(name))

    def open_image(self, path, channel_selector="", grab_focus=True):
        self._send(_OPEN_IMAGE, struct.pack("<?", grab_focus) + _string(path) + _string(channel_selector))
