"""pytest fixtures for dynarock (loaded automatically once scripts/python.sh
installed the package; otherwise `pytest -p dynarock.pytest_plugin` or
`pytest_plugins = ["dynarock.pytest_plugin"]` in a conftest.py).

Fixtures:
  dynarock_engine  a fresh in-memory Engine per test, closed after it
  dynarock_client  dynarock_engine.client(): the boto3-shaped client
  dynarock_streams dynarock_engine.streams_client()
  dynarock_clock   dynarock_engine.clock

Markers:
  @pytest.mark.dynarock_clock(start=1_700_000_000.0)
      the test's engine runs on a simulated clock starting at `start`
      (seconds since the epoch; default 1_700_000_000.0)
  @pytest.mark.dynarock(throttling=True, gsi_lag=0.5, ...)
      any other Engine keyword arguments for the test's engine

dynarock is imported only when a fixture is used, so having the plugin
installed costs other test suites nothing.
"""

import pytest


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "dynarock_clock(start=1700000000.0): run the test's dynarock "
        "engine on a simulated clock starting at `start` (epoch seconds)")
    config.addinivalue_line(
        "markers", "dynarock(**engine_kwargs): keyword arguments for the test's "
        "dynarock.Engine (throttling=True, gsi_lag=..., path=...)")


def _engine_kwargs(node):
    kwargs = {}
    marker = node.get_closest_marker("dynarock")
    if marker is not None:
        if marker.args:
            raise TypeError("@pytest.mark.dynarock takes keyword arguments only")
        kwargs.update(marker.kwargs)
    clock = node.get_closest_marker("dynarock_clock")
    if clock is not None:
        kwargs["clock"] = "simulated"
        if clock.args:
            kwargs["start"] = clock.args[0]
        kwargs.update(clock.kwargs)
    return kwargs


@pytest.fixture
def dynarock_engine(request):
    import dynarock

    engine = dynarock.Engine(**_engine_kwargs(request.node))
    yield engine
    engine.close()


@pytest.fixture
def dynarock_client(dynarock_engine):
    return dynarock_engine.client()


@pytest.fixture
def dynarock_streams(dynarock_engine):
    return dynarock_engine.streams_client()


@pytest.fixture
def dynarock_clock(dynarock_engine):
    return dynarock_engine.clock
