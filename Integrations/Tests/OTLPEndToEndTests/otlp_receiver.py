#!/usr/bin/env python3
"""A minimal OTLP/HTTP trace receiver for the end-to-end test, on 127.0.0.1 only.

It decodes each POST /v1/traces body as an ExportTraceServiceRequest with the OpenTelemetry
project's own protobuf definitions (PyPI opentelemetry-proto), appends it to OUTPUT as one line of
JSON (google.protobuf.json_format), and only then answers, so that an exporter that has seen its
answer has its spans in OUTPUT. It prints its port on its first line and exits when its standard
input closes.

    python3 otlp_receiver.py OUTPUT
"""

import http.server
import os
import sys
import threading

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2


class Handler(http.server.BaseHTTPRequestHandler):
    output = None
    lock = threading.Lock()

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path != "/v1/traces" or self.headers.get("Content-Type") != "application/x-protobuf":
            self.send_error(400, "expected protobuf on /v1/traces")
            return
        request = trace_service_pb2.ExportTraceServiceRequest()
        request.ParseFromString(body)
        line = json_format.MessageToJson(request, indent=None)
        with Handler.lock:
            Handler.output.write(line + "\n")
            Handler.output.flush()
        answer = trace_service_pb2.ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, format, *args):
        pass


def exit_when_stdin_closes():
    sys.stdin.read()
    os._exit(0)


def main():
    Handler.output = open(sys.argv[1], "a", encoding="utf-8")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
