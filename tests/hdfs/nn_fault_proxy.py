"""A NameNode that fails once: an HTTP relay on loopback in front of the NameNode's WebHDFS port.

Every request is passed on to the NameNode and its answer passed back (a CREATE's or OPEN's
redirect to a DataNode included: the client then talks to the DataNode itself). When armed, one
mutating request (PUT, POST or DELETE: MKDIRS, RENAME, DELETE, CREATE...) fails in one of two
ways:

  refuse  not passed on; answered as the NameNode answers an IOException (HTTP 403 with a
          RemoteException body), e.g. one it throws in safe mode or when an edit log fails;
  lose    passed on and done by the NameNode, then the connection is dropped before the
          answer: the client cannot know that the step took place (a NameNode or network
          failure right after the edit).

The one that fails is the first from now that has not failed in that way before (`arm_new`: a
step is its method, path and operation, with the random part of a temporary name, the process
id in it and a unit's attempt id left out), so that runs one after another fail at every step
once, each way. Later requests pass untouched, so a run that goes on after the failure sees a
healthy NameNode. Every answer closes its connection: a client resends a request, unasked, when
a connection it reused dies before the answer (libcurl does), which would hide a lost answer; on
a fresh connection the loss reaches the client.
"""
import http.client
import http.server
import json
import re
import threading

MUTATING = ("PUT", "POST", "DELETE")


class NameNodeFaultProxy:
    def __init__(self, namenode):
        host, port = namenode.split(":")
        self.target = (host, int(port))
        self.lock = threading.Lock()
        self.failed_steps = set()  # (mode, step) that arm_new made fail
        self.disarm()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def relay(self):
                n = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(n) if n else None
                fault = proxy.take(self.command, self.path)
                if fault == "refuse":
                    msg = json.dumps({"RemoteException": {
                        "exception": "IOException", "javaClassName": "java.io.IOException",
                        "message": "injected NameNode failure"}}).encode()
                    self.close_connection = True
                    self.send_response(403)
                    self.send_header("Connection", "close")
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(msg)))
                    self.end_headers()
                    self.wfile.write(msg)
                    return
                c = http.client.HTTPConnection(*proxy.target, timeout=60)
                headers = {k: v for k, v in self.headers.items()
                           if k.lower() not in ("host", "connection")}
                c.request(self.command, self.path, body=body, headers=headers)
                r = c.getresponse()
                data = r.read()
                c.close()
                self.close_connection = True
                if fault == "lose":
                    return
                self.send_response(r.status)
                self.send_header("Connection", "close")
                for k, v in r.getheaders():
                    if k.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_PUT = do_POST = do_DELETE = relay

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.address = "127.0.0.1:%d" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def disarm(self):
        """Nothing fails from now."""
        with self.lock:
            self.mode, self.fired = None, None

    def forget(self):
        """Forgets which steps arm_new made fail."""
        with self.lock:
            self.failed_steps.clear()

    def arm_new(self, mode):
        """Fails the first mutating request from now whose step has not failed as `mode`."""
        with self.lock:
            self.mode, self.fired = mode, None

    @staticmethod
    def step(method, path):
        path = path.split("&user.name")[0]
        # "X.tmp-<random>-<pid>-<n>": n tells a process's temporary files apart (the
        # journal's intent from its commit record).
        path = re.sub(r"\.tmp-[0-9a-f]+-[0-9]+-", ".tmp-", path)
        # A job's attempts of a unit take the same steps, each in its own dir.
        return method + " " + re.sub(r"(/attempts/[^/]+/)[^/?]+", r"\1*", path)

    def take(self, method, path):
        if method not in MUTATING:
            return None
        with self.lock:
            if self.mode is None or self.fired is not None:
                return None
            key = (self.mode, self.step(method, path))
            if key in self.failed_steps:
                return None
            self.failed_steps.add(key)
            self.fired = "%s %s" % (method, path.split("&user.name")[0])
            return self.mode

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
