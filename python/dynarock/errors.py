"""The exceptions the dynarock package raises.

ClientError is botocore's ClientError (a subclass of it) when botocore is
importable, so `except botocore.exceptions.ClientError` in existing boto3 code
catches what the in-process client raises; without botocore it is a plain
Exception with the same constructor, attributes and message.
"""

try:  # botocore is optional: the package works (with less checking) without it
    import botocore.exceptions as _botocore_exceptions
except ImportError:  # pragma: no cover - exercised only without botocore
    _botocore_exceptions = None

from dynarock._dynarock import EngineClosedError  # noqa: F401 (re-exported)

if _botocore_exceptions is not None:

    class ClientError(_botocore_exceptions.ClientError):
        """An error response from the engine, as botocore raises it:
        `.response["Error"]["Code"]` / `["Message"]`, `.operation_name`."""

    ParamValidationError = _botocore_exceptions.ParamValidationError
    WaiterError = _botocore_exceptions.WaiterError

else:

    class ClientError(Exception):
        """An error response from the engine, shaped as botocore's ClientError."""

        MSG_TEMPLATE = ("An error occurred ({error_code}) when calling the "
                        "{operation_name} operation: {error_message}")

        def __init__(self, error_response, operation_name):
            error = error_response.get("Error", {})
            super().__init__(self.MSG_TEMPLATE.format(
                error_code=error.get("Code", "Unknown"),
                error_message=error.get("Message", "Unknown"),
                operation_name=operation_name))
            self.response = error_response
            self.operation_name = operation_name

    class ParamValidationError(ValueError):
        """Parameters that cannot be sent (botocore's ParamValidationError)."""

        def __init__(self, report):
            super().__init__("Parameter validation failed:\n" + report)
            self.kwargs = {"report": report}

    class WaiterError(Exception):
        """A waiter gave up (botocore's WaiterError)."""

        def __init__(self, name, reason, last_response):
            super().__init__(f"Waiter {name} failed: {reason}")
            self.kwargs = {"name": name, "reason": reason,
                           "last_response": last_response}
            self.last_response = last_response
