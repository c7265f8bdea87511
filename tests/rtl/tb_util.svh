// Shared checking helpers for the unit testbenches: count failures and end
// with "TB PASS" or "TB FAIL n" (the runner looks for these).
int unsigned tb_errors = 0;

task automatic tb_check(input bit ok, input string what);
  if (!ok) begin
    tb_errors++;
    $display("FAIL: %s", what);
  end
endtask

task automatic tb_finish();
  if (tb_errors == 0) $display("TB PASS");
  else $display("TB FAIL %0d", tb_errors);
  $finish;
endtask
