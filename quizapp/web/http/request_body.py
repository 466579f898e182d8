"""Request bodies: read errors and stalls become the app's 4xx, a chunked body is bounded."""

from __future__ import annotations

import io
import itertools
import socket
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from werkzeug.exceptions import BadRequest, HTTPException, RequestEntityTooLarge, RequestTimeout

BODY_SECONDS = 10.0  # to send a whole body (64 KiB at most), once the headers are in
BROKEN_BODY = ("The request body could not be read (its chunked framing is broken, or the "
               "connection ended). Nothing was read or saved.")
STALLED_BODY = (f"The request body did not arrive within {BODY_SECONDS:.0f} seconds. Nothing was "
                "read or saved.")


class ReadWatchdog:
    """One thread per process that ends body reads still blocked at their deadline, by shutting
    the socket's reading side: the blocked recv returns at once. A timeout on the socket would
    bound each recv only, and gunicorn loops over recvs until it has the size asked for, so a
    client sending a byte every few seconds went on for ever."""

    def __init__(self) -> None:
        self._wake = threading.Condition()
        self._armed: dict[int, tuple[float, Any]] = {}  # token -> (deadline, socket)
        self._fired: set[int] = set()
        self._tokens = itertools.count()
        self._thread: threading.Thread | None = None

    def arm(self, sock: Any, deadline: float) -> int:
        with self._wake:
            token = next(self._tokens)
            self._armed[token] = (deadline, sock)
            if self._thread is None or not self._thread.is_alive():  # started in each worker
                self._thread = threading.Thread(target=self._watch, name="body-deadline",
                                                daemon=True)
                self._thread.start()
            self._wake.notify()
            return token

    def disarm(self, token: int) -> bool:
        """Stop watching; True if the deadline passed (and the socket was shut) meanwhile."""
        with self._wake:
            self._armed.pop(token, None)
            fired = token in self._fired
            self._fired.discard(token)
            return fired

    def _watch(self) -> None:
        with self._wake:
            while True:
                now = time.monotonic()
                for token, (deadline, sock) in list(self._armed.items()):
                    if deadline <= now:
                        del self._armed[token]
                        self._fired.add(token)
                        try:
                            sock.shutdown(socket.SHUT_RD)
                        except OSError:  # closed meanwhile: nothing left to end
                            pass
                deadlines = [deadline for deadline, _ in self._armed.values()]
                self._wake.wait(min(deadlines) - now if deadlines else None)


WATCHDOG = ReadWatchdog()


class GuardedBody(io.RawIOBase):
    """The server's input stream, read before a deadline, whose errors are HTTP errors.

    gunicorn raises its own parse errors (InvalidChunkSize, ChunkMissingTerminator) from inside
    a read, and waits for a stalled body for ever, holding one of its few threads: a client's
    mistake became a 500 with a traceback, and a few stalled uploads froze the server
    (found by fuzzing). ``sock`` is gunicorn's socket (environ["gunicorn.socket"]), if any:
    the WATCHDOG ends a read still going at the deadline.
    """

    def __init__(self, stream: Any, sock: Any, deadline: float) -> None:
        super().__init__()
        self.stream, self.sock, self.deadline = stream, sock, deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.sock is not None and time.monotonic() >= self.deadline:
            raise RequestTimeout(STALLED_BODY)
        token = WATCHDOG.arm(self.sock, self.deadline) if self.sock is not None else None
        error: HTTPException | None = None
        try:
            data = self.stream.read(len(buffer))
        except Exception:  # whatever the server raises for broken framing or a client leaving
            error, data = BadRequest(BROKEN_BODY), b""
        if token is not None and WATCHDOG.disarm(token):
            raise RequestTimeout(STALLED_BODY)  # the watchdog ended the read at the deadline
        if error is not None:
            raise error
        buffer[: len(data)] = data
        return len(data)


class RefusedBody(io.RawIOBase):
    """A body that raises ``error`` on every read: form parsing, the CSRF check and get_json
    meet it there, and the app's error handlers answer (JSON on /api/, a page elsewhere)."""

    def __init__(self, error: HTTPException) -> None:
        super().__init__()
        self.error = error

    def readable(self) -> bool:
        return True

    def readinto(self, _buffer: Any) -> int:
        raise self.error


def compute_bounded_body(body: io.RawIOBase, max_bytes: int) -> io.RawIOBase | io.BytesIO:
    """A chunked body read whole, or a RefusedBody (413 past ``max_bytes``, or the read's own
    error): werkzeug would cut it at MAX_CONTENT_LENGTH and silently drop the rest."""
    chunks, size = [], 0
    try:
        while size <= max_bytes and (chunk := body.read(max_bytes + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
    except HTTPException as error:
        return RefusedBody(error)
    if size > max_bytes:
        return RefusedBody(RequestEntityTooLarge())
    return io.BytesIO(b"".join(chunks))


class GuardedRequestBody:
    """WSGI middleware: every body is read through a GuardedBody; a chunked one (no
    Content-Length) is read up front by compute_bounded_body."""

    def __init__(self, app: Callable, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        body = GuardedBody(environ["wsgi.input"], environ.get("gunicorn.socket"),
                           time.monotonic() + BODY_SECONDS)
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if chunked and not environ.get("CONTENT_LENGTH"):
            environ["wsgi.input"] = compute_bounded_body(body, self.max_bytes)
        else:
            environ["wsgi.input"] = body
        return self.app(environ, start_response)
