// The block's counters (UCM_CYC_* and UCM_EV_*): busy cycles per command
// mode and the device events a cost model prices. What each cycle adds is
// derived from the controller's state; docs/unicaim.md defines each event.
module ucm_counters #(
  parameter int unsigned Dim
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  clear_i,          // CTRL.CLEAR_COUNTERS while idle
  input  ucm_pkg::state_e       state_i,
  input  logic                  first_cycle_i,    // a command's first busy cycle
  input  logic                  exact_op_i,       // VALIDATE belongs to EXACT (else to ACC_ADD)
  input  logic                  cell_write_i,     // a key row is written
  input  logic                  accumulate_i,     // SEARCH with F_ACCUMULATE
  input  logic [15:0]           valid_slots_i,    // the searched bank's valid slots
  input  logic                  adc_issue_i,      // EXACT fetches a plane group through the converters
  input  logic [15:0]           adc_conversions_i,
  input  logic [15:0]           adc_rounds_i,
  input  logic                  acc_digital_i,    // ACC_ADD adds to a valid slot
  input  logic [3:0]            read_idx_i,
  output logic [31:0]           read_data_o
);

  logic [31:0] count_q [ucm_pkg::Counters];
  logic [31:0] add [ucm_pkg::Counters];

  always_comb begin : c_add
    for (int unsigned i = 0; i < ucm_pkg::Counters; i++) add[i] = '0;
    unique case (state_i)
      ucm_pkg::ST_WRITE:    add[ucm_pkg::C_WRITE] = 32'd1;
      ucm_pkg::ST_SCORE, ucm_pkg::ST_RADIX, ucm_pkg::ST_GT, ucm_pkg::ST_EMIT: add[ucm_pkg::C_SEARCH] = 32'd1;
      ucm_pkg::ST_VALIDATE: add[exact_op_i ? ucm_pkg::C_EXACT : ucm_pkg::C_ACC] = 32'd1;
      ucm_pkg::ST_EXACT:    add[ucm_pkg::C_EXACT] = 32'd1;
      ucm_pkg::ST_ACC:      add[ucm_pkg::C_ACC] = 32'd1;
      ucm_pkg::ST_VICTIM:   add[ucm_pkg::C_VICTIM] = 32'd1;
      ucm_pkg::ST_CTRL, ucm_pkg::ST_READ, ucm_pkg::ST_RESET: add[ucm_pkg::C_MISC] = 32'd1;
      default: ;
    endcase
    if (cell_write_i) add[ucm_pkg::E_CELL_WRITE] = 32'(Dim);
    if (adc_issue_i) begin
      add[ucm_pkg::E_ADC_CONV]  = 32'(adc_conversions_i);
      add[ucm_pkg::E_ADC_ROUND] = 32'(adc_rounds_i);
    end
    if (acc_digital_i) add[ucm_pkg::E_ACC_DIGITAL] = 32'd1;
    // A command's own events, in its first cycle.
    if (state_i == ucm_pkg::ST_SCORE && first_cycle_i) begin
      add[ucm_pkg::E_SEARCH]      = 32'd1;
      add[ucm_pkg::E_CELL_SEARCH] = 32'(valid_slots_i) * Dim;
      if (accumulate_i) add[ucm_pkg::E_ACC_CHARGE] = 32'(valid_slots_i);
    end
    if (state_i == ucm_pkg::ST_VICTIM && first_cycle_i) add[ucm_pkg::E_MIN_DETECT] = 32'd1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_count
    if (!rst_ni) begin
      for (int unsigned i = 0; i < ucm_pkg::Counters; i++) count_q[i] <= '0;
    end else if (clear_i) begin
      for (int unsigned i = 0; i < ucm_pkg::Counters; i++) count_q[i] <= '0;
    end else if (state_i != ucm_pkg::ST_IDLE) begin
      for (int unsigned i = 0; i < ucm_pkg::Counters; i++) count_q[i] <= count_q[i] + add[i];
    end
  end

  assign read_data_o = count_q[read_idx_i];

endmodule : ucm_counters
