# SPDX-License-Identifier: GPL-2.0-only
"""analysis/plot_cc_log.py on small cc-log.csv files written here, against
values read off them by hand."""
import os

from analysis import plot_cc_log as pc

HEADER = ("time_ns,flow_id,event,action,old_rate_bps,new_rate_bps,old_window_bytes,"
          "new_window_bytes,inputs\n")
ROWS = [
    "0,1,init,,100000000000,100000000000,-1,125000,",
    "5000,1,cnp,cut,100000000000,50000000000,-1,-1,alpha=1;target_rate=1e+11",
    "5000,2,cnp,cut,100000000000,50000000000,-1,-1,alpha=1",
    "60000,1,timer,fast-recovery,50000000000,75000000000,-1,-1,stage=1;target_rate=1e+11",
    "61000,1,ack,,75000000000,75000000000,-1,-1,",
]


def write(tmp_path, rows, header=HEADER):
    p = tmp_path / "cc-log.csv"
    p.write_text(header + "".join(r + "\n" for r in rows))
    return str(p)


def test_one_flows_records_with_inputs_as_columns(tmp_path):
    rec = pc.flow_records(pc.read_log(write(tmp_path, ROWS)), 1)
    assert list(rec.time_us) == [0.0, 5.0, 60.0, 61.0]
    assert list(rec.action) == ["", "cut", "fast-recovery", ""]
    assert list(rec.new_rate_gbps) == [100.0, 50.0, 75.0, 75.0]
    assert list(rec.new_window_bytes) == [125000, -1, -1, -1]
    # alpha only in the cut, stage only in the recovery, target_rate in both.
    assert rec.alpha.tolist()[1] == 1.0 and rec.alpha.isna().tolist() == [True, False, True, True]
    assert rec.stage.tolist()[2] == 1.0
    assert rec.target_rate.tolist()[1:3] == [1e11, 1e11]


def test_time_window_in_microseconds(tmp_path):
    rec = pc.flow_records(pc.read_log(write(tmp_path, ROWS)), 1, start_us=5, end_us=60)
    assert list(rec.time_us) == [5.0, 60.0]


def test_png_and_csv_written(tmp_path):
    log = write(tmp_path, ROWS)
    png, csv = str(tmp_path / "f1.png"), str(tmp_path / "f1.csv")
    assert pc.main([log, "--flow", "1", "--png", png, "--csv", csv]) == 0
    assert os.path.getsize(png) > 1000
    with open(csv) as f:
        assert f.readline().startswith("time_us,event,action,old_rate_gbps,new_rate_gbps")
        assert len(f.readlines()) == 4


def test_a_flow_without_records_is_bad_input(tmp_path, capsys):
    assert pc.main([write(tmp_path, ROWS), "--flow", "3"]) == 2
    assert "flow 3 has no records (the log has flows 1, 2)" in capsys.readouterr().err


def test_a_missing_column_is_named(tmp_path, capsys):
    assert pc.main([write(tmp_path, ["0,1,init"], header="time_ns,flow_id,event\n"),
                    "--flow", "1"]) == 2
    assert "no column action" in capsys.readouterr().err


def test_an_input_without_a_value_is_named(tmp_path, capsys):
    assert pc.main([write(tmp_path, ["0,1,cnp,cut,1,1,-1,-1,alpha"]), "--flow", "1"]) == 2
    assert "input 'alpha' is not name=value" in capsys.readouterr().err


def test_unreadable_file_is_an_io_failure(tmp_path, capsys):
    assert pc.main([str(tmp_path / "missing.csv"), "--flow", "1"]) == 1
