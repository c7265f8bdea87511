// Shared checking helpers for the unit testbenches: count checks and
// failures and end with "TB PASS n checks" or "TB FAIL n" (the runner looks
// for these). A run with fewer checks than the testbench's stated minimum
// fails: a loop that never ran, a monitor that never fired, passes nothing.
int unsigned tb_errors = 0, tb_checks = 0;

task automatic tb_check(input bit ok, input string what);
  tb_checks++;
  if (!ok) begin
    tb_errors++;
    $display("FAIL: %s", what);
  end
endtask

task automatic tb_finish(input int unsigned min_checks);
  if (tb_checks < min_checks) begin
    tb_errors++;
    $display("FAIL: %0d checks ran, fewer than the %0d this testbench makes", tb_checks, min_checks);
  end
  if (tb_errors == 0) $display("TB PASS %0d checks", tb_checks);
  else $display("TB FAIL %0d", tb_errors);
  $finish;
endtask
