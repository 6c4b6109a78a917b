"""futhark-server driving an ogham `--server` executable."""

import sys
import tempfile

import futhark_server
import numpy as np

exe = sys.argv[1]

with futhark_server.Server(exe, *sys.argv[2:]) as s:
    eps = s.cmd_entry_points()
    assert "stats" in eps and "sum_f32" in eps, eps
    assert s.cmd_inputs("scale") == ["f64", "[][]f64"], s.cmd_inputs("scale")
    assert s.cmd_output("stats") == ["(f64, []f64, i64)"], s.cmd_output("stats")
    assert s.cmd_output("mk") == ["pt"], s.cmd_output("mk")

    xs = np.array([1.0, 2.0, 3.5])
    s.put_value("xs", xs)
    s.put_value("xf", xs.astype(np.float32))
    out = s.cmd_call("sum_f32", "r0", "xf")
    assert out and out[0].startswith("runtime: "), out
    assert s.get_value("r0") == np.float32(6.5)

    # A tuple result is one variable; stored, it reads back as its components.
    s.cmd_call("stats", "st", "xs")
    total, doubled, n = s.get_value("st")
    assert total == 6.5 and np.array_equal(doubled, xs * 2) and n == 3
    assert s.cmd("type", "st") == ["(f64, []f64, i64)"]
    # futhark-server sends words unquoted; the protocol quotes words with spaces.
    assert s.cmd("kind", '"(f64, []f64, i64)"') == ["record"]
    assert s.cmd("kind", "(f64, []f64, i64)") == ["record"]
    assert s.cmd_fields("(f64, []f64, i64)") == ["0 f64", "1 []f64", "2 i64"], s.cmd_fields("(f64, []f64, i64)")
    s.cmd_project("st1", "st", "1")
    assert np.array_equal(s.get_value("st1"), xs * 2)

    # Opaque records: store, free, restore, use again.
    s.put_value("a", np.float64(3.0))
    s.put_value("b", np.float64(4.0))
    s.cmd_call("mk", "p", "a", "b")
    with tempfile.NamedTemporaryFile() as f:
        s.cmd_store(f.name, "p")
        s.cmd_free("p")
        s.cmd_restore(f.name, ("q", "pt"))
    s.cmd_call("norm", "nq", "q")
    assert s.get_value("nq") == 5.0
    bs = s.get_value_bytes("q")
    # futhark-server 1.0.1's put_value_bytes passes its list of pairs on as one
    # pair (cmd_restore(f, pairs) instead of cmd_restore(f, *pairs)), so one
    # pair is given bare.
    s.put_value_bytes(bs, ("q2", "pt"))
    s.cmd_call("norm", "nq2", "q2")
    assert s.get_value("nq2") == 5.0
    s.cmd("new", "q3", "pt", "b", "a")
    s.cmd_call("norm", "nq3", "q3")
    assert s.get_value("nq3") == 5.0
    s.cmd_project("qx", "q3", "x")
    assert s.get_value("qx") == 4.0
    assert s.cmd("kind", "pt") == ["record"] and s.cmd("kind", "[]f64") == ["array"] and s.cmd("kind", "i64") == ["primitive"]
    assert "pt" in s.cmd_types()

    # A run-time error is a failure, and the server goes on.
    s.put_value("is", np.array([1, 2, 3], dtype=np.int64))
    s.put_value("i", np.int64(7))
    try:
        s.cmd_call("get", "bad", "is", "i")
        raise AssertionError("expected a failure")
    except futhark_server.Failure as e:
        assert "out of bounds" in str(e).lower() or "index" in str(e).lower(), str(e)
    s.put_value("one", np.int64(1))
    s.cmd_call("get", "good", "is", "one")
    assert s.get_value("good") == 2

    # A program constant, computed when the server started: a failed call
    # that used it leaves it intact for the next one.
    s.put_value("nine", np.int64(9))
    try:
        s.cmd_call("half", "h9", "nine")
        raise AssertionError("expected a failure")
    except futhark_server.Failure as e:
        assert "out of bounds" in str(e).lower() or "index" in str(e).lower(), str(e)
    s.put_value("three", np.int64(3))
    s.cmd_call("half", "h3", "three")
    assert s.get_value("h3") == 1.5

    # Cheap commands of the protocol.
    assert s.cmd_tuning_params("stats") == []
    # A tuning parameter: its default until it is set.
    assert s.cmd_tuning_params("tuned") == ["block"]
    assert s.cmd("tuning_param_class", "block") == ["user"]
    s.put_value("seven", np.int64(7))
    s.cmd_call("tuned", "t0", "seven")
    assert s.get_value("t0") == 7
    s.cmd_set_tuning_param("block", "32")
    s.cmd_call("tuned", "t1", "seven")
    assert s.get_value("t1") == 32
    s.cmd_free("seven", "t0", "t1")
    assert s.cmd("attributes", "stats") == []
    try:
        s.cmd_set_tuning_param("nope", "1")
        raise AssertionError("set_tuning_param should fail")
    except futhark_server.Failure:
        pass
    s.cmd_rename("good", "better")
    s.cmd_clear()
    s.cmd_pause_profiling()
    s.cmd_unpause_profiling()
    s.cmd_report()
    s.cmd_free("xs", "xf", "r0", "st", "st1", "q", "q2", "q3", "nq", "nq2", "nq3", "qx", "a", "b", "is", "i", "one", "better")
print("futhark-server: ok")
