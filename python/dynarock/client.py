"""The boto3-shaped low-level client of an in-process dynarock Engine.

`Engine.client()` returns a DynamoDBClient: boto3's method names
(`put_item`, `query`, ...) taking boto3's keyword arguments and returning
boto3's response dicts. With botocore importable (Debian's python3-botocore,
installed with boto3) the client uses botocore's own pieces for the service
model it ships: its ParamValidator (the same ParamValidationError before
anything is sent), its JSON serializer (bytes -> base64) and its JSON parser
(base64 -> bytes, timestamps -> datetime, `ResponseMetadata`), so a response
dict is what boto3 returns for the same bytes on the wire. The bytes come
from `api::Client::Call`, which is what the HTTP server sends: the same
decoding, validation and error messages, without HTTP or SigV4.

Operations the installed botocore model does not know (a newer DynamoDB
operation, or botocore absent) still work: the keyword arguments go out as
JSON (bytes as base64) and the parsed JSON body comes back, with
`ResponseMetadata`; an operation the engine does not serve raises
ClientError (UnknownOperationException).

Differences from a boto3 client, on purpose: no retries (a simulator wants
to see every throttle; retry in your own loop), no endpoint or credentials;
waiters on a simulated clock advance the clock by their delay instead of
sleeping.
"""

import base64
import json
import threading
import time
import uuid
import zlib
from email.utils import formatdate

from dynarock.errors import ClientError, ParamValidationError, WaiterError

try:
    import botocore.hooks
    import botocore.loaders
    import botocore.model
    import botocore.paginate
    import botocore.parsers
    import botocore.serialize
    import botocore.validate
    import botocore.waiter
    from botocore.errorfactory import ClientExceptionsFactory
    from botocore import xform_name
    HAVE_BOTOCORE = True
except ImportError:  # pragma: no cover - exercised only without botocore
    HAVE_BOTOCORE = False

    def xform_name(name):
        out = []
        for i, c in enumerate(name):
            if c.isupper() and i and (not name[i - 1].isupper()
                                      or (i + 1 < len(name) and name[i + 1].islower())):
                out.append("_")
            out.append(c.lower())
        return "".join(out)

# The operation names api::Client::Call takes for each service (api/dispatch.cc):
# DynamoDB's bare, the others with their target prefix.
_TARGET_PREFIX = {
    "dynamodb": "",
    "dynamodbstreams": "DynamoDBStreams_20120810.",
}
EXTENSION_PREFIX = "DynamoRock_20251121."

_models_lock = threading.Lock()
_models = {}  # service name -> _ServiceParts, loaded once per process


class _ServiceParts:
    """botocore's model, validator, serializer and parser for one service."""

    def __init__(self, service):
        loader = botocore.loaders.create_loader()
        self.model = botocore.model.ServiceModel(
            loader.load_service_model(service, "service-2"), service_name=service)
        try:
            self.paginators = loader.load_service_model(
                service, "paginators-1")["pagination"]
        except Exception:  # a service without paginators
            self.paginators = {}
        try:
            self.waiters = botocore.waiter.WaiterModel(
                loader.load_service_model(service, "waiters-2"))
        except Exception:  # a service without waiters
            self.waiters = None
        self.validator = botocore.validate.ParamValidator()
        self.serializer = botocore.serialize.create_serializer(
            "json", include_validation=False)
        self.parser = botocore.parsers.create_parser("json")
        self.methods = {xform_name(op): op for op in self.model.operation_names}
        self.exceptions = ClientExceptionsFactory().create_client_exceptions(self.model)


def _parts(service):
    if not HAVE_BOTOCORE:
        return None
    with _models_lock:
        if service not in _models:
            _models[service] = _ServiceParts(service)
        return _models[service]


def _json_default(value):
    # botocore's serializer sends blobs as base64; do the same without it.
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if hasattr(value, "timestamp"):  # datetime: epoch seconds, as botocore's JSON
        return value.timestamp()
    raise TypeError(f"cannot send {type(value).__name__} in a request")


class _Exceptions:
    """`client.exceptions`: the service's modeled errors, each a subclass of
    both botocore's modeled class (so `except client.exceptions.X` reads as
    in boto3) and dynarock.ClientError."""

    def __init__(self, parts):
        self.ClientError = ClientError
        self._by_code = {}
        if parts is None:
            return
        for name, cls in parts.exceptions._code_to_exception.items():
            dual = type(name, (cls, ClientError), {"__module__": "dynarock.client"})
            self._by_code[name] = dual
            setattr(self, name, dual)

    def from_code(self, code):
        return self._by_code.get(code, ClientError)


if HAVE_BOTOCORE:

    class _Events(botocore.hooks.HierarchicalEmitter):
        """botocore's event emitter; `used` says whether anything was ever
        registered, so that a client nobody hooks skips emitting."""

        used = False

        def _register_section(self, *args, **kwargs):
            self.used = True
            return super()._register_section(*args, **kwargs)


class _HttpResponse:
    """What after-call handlers get as `http_response` (botocore's
    AWSResponse's status_code, headers, content and text)."""

    def __init__(self, status_code, headers, content):
        self.status_code, self.headers, self.content = status_code, headers, content

    @property
    def text(self):
        return self.content.decode("utf-8")


class _Meta:
    """`client.meta`, the parts of boto3's that code reads; `events` emits
    botocore's before-call.<service>.<Op> (params: the request dict, whose
    "body" a handler may replace) and after-call.<service>.<Op>
    (http_response, parsed)."""

    def __init__(self, service, region_name, parts):
        self.events = _Events() if HAVE_BOTOCORE else None
        self.service_model = parts.model if parts else None
        self.region_name = region_name
        self.endpoint_url = "dynarock://in-process"
        self.partition = "aws"
        self.method_to_api_mapping = dict(parts.methods) if parts else {}


class BaseClient:
    """One service's boto3-shaped client over an Engine (see the module doc).

    Thread-safe: any number of threads may call one client; the engine call
    itself runs without the GIL."""

    def __init__(self, engine, service, region_name, aws_access_key_id, validate):
        self._engine = engine
        self._service = service
        self._prefix = _TARGET_PREFIX[service]
        self._parts = _parts(service)
        self._region = region_name or ""
        self._key = aws_access_key_id or ""
        self._validate = validate
        self.meta = _Meta(service, region_name, self._parts)
        # botocore's event names use the hyphenized service id.
        self._event_service = (self._parts.model.service_id.hyphenize()
                               if self._parts else service)
        self.exceptions = _Exceptions(self._parts)

    # --- the call ---

    def _make_api_call(self, operation_name, api_params):
        parts = self._parts
        if parts is None or operation_name not in parts.model.operation_names:
            return self._raw_call(self._prefix + operation_name, operation_name,
                                  api_params)
        op = parts.model.operation_model(operation_name)
        if self._validate:
            report = parts.validator.validate(api_params, op.input_shape)
            if report.has_errors():
                raise ParamValidationError(report=report.generate_report())
            body = parts.serializer.serialize_to_request(api_params, op)["body"]
        else:
            # Unvalidated: whatever was passed goes out as JSON (botocore's
            # serializer needs parameters that fit the model), and the engine
            # validates it as it would a server request.
            body = json.dumps(api_params, default=_json_default).encode()
        events = self.meta.events if self.meta.events.used else None
        if events is not None:
            request = {"url_path": "/", "query_string": "", "method": "POST",
                       "headers": {"X-Amz-Target": op.metadata["targetPrefix"] + "."
                                   + operation_name,
                                   "Content-Type": "application/x-amz-json-1.0"},
                       "body": body, "url": self.meta.endpoint_url, "context": {}}
            events.emit(f"before-call.{self._event_service}.{operation_name}",
                        model=op, params=request, request_signer=None, context={})
            body = request["body"]
        status, out = self._engine._call(self._prefix + operation_name, body,
                                         self._key, self._region)
        response = {"status_code": status, "headers": _headers(out), "body": out}
        parsed = parts.parser.parse(response, op.output_shape)
        parsed["ResponseMetadata"]["RetryAttempts"] = 0
        if status >= 300:
            code = parsed.get("Error", {}).get("Code")
            # What botocore's endpoint adds to an error: the members of its
            # modeled shape (TransactionCanceledException's
            # CancellationReasons, ConditionalCheckFailedException's Item).
            shape = parts.model.shape_for_error_code(code) if code else None
            if shape is not None:
                parsed.update(parts.parser.parse(response, shape))
        if events is not None:
            events.emit(f"after-call.{self._event_service}.{operation_name}",
                        http_response=_HttpResponse(status, response["headers"], out),
                        parsed=parsed, model=op, context={})
        if status >= 300:
            raise self.exceptions.from_code(code)(parsed, operation_name)
        return parsed

    def _raw_call(self, target, operation_name, api_params):
        """A call without a botocore model: JSON out, JSON back."""
        body = json.dumps(api_params, default=_json_default).encode()
        status, out = self._engine._call(target, body, self._key, self._region)
        headers = _headers(out)
        try:
            parsed = json.loads(out) if out else {}
        except ValueError:
            parsed = {}
        meta = {"RequestId": headers["x-amzn-requestid"], "HTTPStatusCode": status,
                "HTTPHeaders": headers, "RetryAttempts": 0}
        if status >= 300:
            code = parsed.get("__type", "").rsplit("#", 1)[-1] or str(status)
            message = parsed.get("message", parsed.get("Message", ""))
            response = {"Error": {"Code": code, "Message": message},
                        "ResponseMetadata": meta}
            raise self.exceptions.from_code(code)(response, operation_name)
        parsed["ResponseMetadata"] = meta
        return parsed

    def __getattr__(self, name):
        # A snake_case operation the installed botocore model lacks: sent as
        # JSON under its CamelCase name (the engine answers
        # UnknownOperationException if it does not serve it either).
        if name.startswith("_") or not name.islower():
            raise AttributeError(name)
        operation = "".join(w[:1].upper() + w[1:] for w in name.split("_"))

        def call(*args, **kwargs):
            if args:
                raise TypeError(f"{name}() only accepts keyword arguments.")
            return self._raw_call(self._prefix + operation, operation, kwargs)

        call.__name__ = name
        return call

    # --- boto3's helpers ---

    def can_paginate(self, operation_name):
        parts = self._parts
        return bool(parts) and parts.methods.get(operation_name) in parts.paginators

    def get_paginator(self, operation_name):
        """botocore's Paginator over this client (query, scan, list_tables, ...)."""
        if not self.can_paginate(operation_name):
            raise ValueError(f"operation cannot be paginated: {operation_name}")
        op = self._parts.methods[operation_name]
        paginator = botocore.paginate.Paginator(
            getattr(self, operation_name), self._parts.paginators[op],
            self._parts.model.operation_model(op))
        return paginator

    @property
    def waiter_names(self):
        w = self._parts.waiters if self._parts else None
        return [xform_name(n) for n in w.waiter_names] if w else []

    def get_waiter(self, waiter_name):
        """table_exists / table_not_exists, from botocore's waiter model."""
        w = self._parts.waiters if self._parts else None
        names = {xform_name(n): n for n in (w.waiter_names if w else [])}
        if waiter_name not in names:
            raise ValueError(f"Waiter does not exist: {waiter_name}")
        return Waiter(self, names[waiter_name], w.get_waiter(names[waiter_name]))

    def close(self):
        """Nothing to close (boto3 clients have it); the Engine owns the state."""


_date = [0, ""]  # the Date header of the current second (formatdate is slow)


def _headers(body):
    # What the HTTP server sends with a response (api/http/protocol).
    now = int(time.time())
    if _date[0] != now:
        _date[:] = [now, formatdate(now, usegmt=True)]
    return {
        "server": "dynarock",
        "date": _date[1],
        "content-type": "application/x-amz-json-1.0",
        "content-length": str(len(body)),
        "connection": "keep-alive",
        "x-amzn-requestid": uuid.uuid4().hex.upper(),
        "x-amz-crc32": str(zlib.crc32(body)),
    }


class Waiter:
    """botocore's waiter semantics (acceptors, Delay, MaxAttempts,
    WaiterError) over this client. On a simulated clock it advances the
    engine's clock by Delay between attempts instead of sleeping: the wait
    happens in simulated time, and wall time does not move it."""

    def __init__(self, client, name, config):
        self._client = client
        self.name = name
        self.config = config

    def wait(self, **kwargs):
        config = kwargs.pop("WaiterConfig", {}) or {}
        delay = config.get("Delay", self.config.delay)
        attempts = config.get("MaxAttempts", self.config.max_attempts)
        operation = getattr(self._client, xform_name(self.config.operation))
        engine = self._client._engine
        last = None
        for attempt in range(1, attempts + 1):
            try:
                response = operation(**kwargs)
            except ClientError as e:
                response = e.response
            last = response
            state = None
            for acceptor in self.config.acceptors:
                if acceptor.matcher_func(response):
                    state = acceptor.state
                    break
            if state is None and "Error" in response:
                raise WaiterError(name=self.name,
                                  reason="An error occurred (%s): %s" % (
                                      response["Error"].get("Code", "Unknown"),
                                      response["Error"].get("Message", "Unknown")),
                                  last_response=response)
            if state == "success":
                return None
            if state == "failure":
                raise WaiterError(name=self.name,
                                  reason="Waiter encountered a terminal failure state",
                                  last_response=response)
            if attempt < attempts:
                if engine.clock.simulated:
                    engine.clock.advance(delay)
                else:
                    time.sleep(delay)
        raise WaiterError(name=self.name, reason="Max attempts exceeded",
                          last_response=last)


def _client_class(service):
    """A client class with one method per operation of the service's model,
    named and documented as boto3's (created once per service)."""
    parts = _parts(service)
    namespace = {"__doc__": f"In-process boto3-shaped client for {service}."}
    for method, operation in (parts.methods.items() if parts else ()):
        namespace[method] = _operation_method(method, operation)
    return type("DynamoDB" if service == "dynamodb" else "DynamoDBStreams",
                (BaseClient,), namespace)


def _operation_method(method, operation):
    def call(self, *args, **kwargs):
        if args:
            raise TypeError(f"{method}() only accepts keyword arguments.")
        return self._make_api_call(operation, kwargs)

    call.__name__ = method
    call.__doc__ = f"DynamoDB {operation}, as boto3's client.{method}."
    return call


_classes = {}


def make_client(engine, service="dynamodb", region_name="us-east-1",
                aws_access_key_id="local", validate=True):
    cls = _classes.get(service)
    if cls is None:
        cls = _classes.setdefault(service, _client_class(service))
    return cls(engine, service, region_name, aws_access_key_id, validate)
