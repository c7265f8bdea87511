// The block's software interface: the configuration registers, the STEP,
// KEY and QUERY windows, STATUS / RESULT / SLOT_* and the bus's read side,
// and the checks a command passes before the engine (ucm_block) starts it.
// The engine reports back: a command's end, its errors and results.
// Registers and fields are placed by the generated soc_regs_pkg
// (rtl/soc/regmap.toml); docs/unicaim.md describes them.
module ucm_regs #(
  parameter int unsigned Banks,
  parameter int unsigned Slots,
  parameter int unsigned Dim,
  parameter int unsigned AdcBits,
  parameter logic [31:0] GeomWord  = '0,  // the read-only geometry registers
  parameter logic [31:0] ShapeWord = '0,
  parameter logic [31:0] ConvWord  = '0,
  localparam int unsigned BankW  = ucm_pkg::index_bits(Banks)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  soc_bus_pkg::bus_req_t req_i,   // registered; addr = offset in the block
  output soc_bus_pkg::bus_rsp_t rsp_o,
  output logic                  irq_o,
  input  logic                  busy_i,
  // A command written while idle, decoded and checked (state ST_IDLE when refused).
  output logic                  cmd_start_o,
  output ucm_pkg::state_e       cmd_state_o,
  output logic [3:0]            cmd_op_o,
  output logic [2:0]            cmd_flags_o,   // FLAGS bit 3 is reserved
  output logic [BankW-1:0]      cmd_bank_o,
  output logic [15:0]           cmd_arg_o,
  input  logic [15:0]           cmd_bank_valid_i,  // the valid slots of cmd_bank_o (SEARCH's k check)
  // Configuration.
  output logic                  seed_write_o,  // SEED written: the draws' serial terms restart
  output logic                  clear_counters_o,
  output logic [15:0]           pos_o,
  output logic [31:0]           acc_init_o,
  output logic [31:0]           threshold_o,
  output logic [31:0]           seed_o,
  output logic [7:0]            qstep_o,
  output logic [4:0]            alpha_o,
  output logic                  linear_o,      // the linear accumulator update (ablation)
  // The sense line: its decay rate, the charge-sharing weight (both derived
  // from the trim registers, two cycles behind them) and V_pre.
  output logic [ucm_pkg::RateW-1:0]   sense_rate_o,
  output logic [ucm_pkg::WeightW-1:0] share_weight_o,
  output logic [11:0]           vpre_o,
  output logic [7:0]            adc_gain_o,
  output logic [3:0]            adc_shift_o,
  output logic [4:0]            adc_bits_o,    // the resolution in use
  output logic [7:0]            sigma_o,
  output logic [7:0]            read_noise_o,
  output logic [15:0]           stuck_rate_o,
  output logic [Dim*8-1:0]      key_o,
  output logic [Dim*8-1:0]      query_o,
  input  logic [BankW-1:0]      step_bank_i,
  output logic [soc_regs_pkg::UCM_STEP_VALUE_WIDTH-1:0] step_o,  // STEP of step_bank_i
  // The engine's reports.
  input  logic                  finish_i,      // the command's last busy cycle
  input  logic                  err_slot_i,    // a LIST entry out of range
  input  logic                  err_novictim_i,
  input  logic                  result_we_i,
  input  logic [31:0]           result_i,
  input  logic                  slot_read_i,   // READ_SLOT's copy
  input  ucm_pkg::slot_meta_t   slot_meta_i,
  input  logic [15:0]           slot_bank_valid_i,
  // The windows the lanes hold and the counters.
  output logic [15:0]           window_idx_o,  // the LIST / SCORE entry addressed
  output logic                  list_write_o,  // the bus writes that LIST entry
  input  logic [31:0]           list_rdata_i,
  input  logic [31:0]           score_rdata_i,
  output logic [3:0]            counter_idx_o,
  input  logic [31:0]           counter_i
);

  logic        irq_enable_q, done_q;
  logic [7:0]  err_q;  // STATUS.ERR_CMD .. ERR_RANGE, in order
  logic [31:0] cmd_q, result_q;
  logic [15:0] pos_q;
  logic [31:0] acc_init_q, threshold_q, noise_cfg_q, seed_q;
  logic [soc_regs_pkg::UCM_CAM_CFG_LINEAR_LSB:0] cam_cfg_q;
  logic [soc_regs_pkg::UCM_SENSE_TIME_VPRE_LSB+soc_regs_pkg::UCM_SENSE_TIME_VPRE_WIDTH-1:0] sense_time_q;
  logic [soc_regs_pkg::UCM_SENSE_CAP_CACC_LSB+soc_regs_pkg::UCM_SENSE_CAP_CACC_WIDTH-1:0]  sense_cap_q;
  logic [soc_regs_pkg::UCM_ADC_CFG_BITS_LSB+soc_regs_pkg::UCM_ADC_CFG_BITS_WIDTH-1:0]   adc_cfg_q;
  logic [31:0] slot_meta_q, slot_acc_q, slot_valid_count_q;
  logic [soc_regs_pkg::UCM_STEP_VALUE_WIDTH-1:0] step_q [Banks];
  logic [Dim*8-1:0] key_q, query_q;

  localparam int unsigned ErrBusy     = soc_regs_pkg::UCM_STATUS_ERR_BUSY_LSB - soc_regs_pkg::UCM_STATUS_ERR_CMD_LSB;
  localparam int unsigned ErrSlot     = soc_regs_pkg::UCM_STATUS_ERR_SLOT_LSB - soc_regs_pkg::UCM_STATUS_ERR_CMD_LSB;
  localparam int unsigned ErrNoVictim = soc_regs_pkg::UCM_STATUS_ERR_NOVICTIM_LSB - soc_regs_pkg::UCM_STATUS_ERR_CMD_LSB;
  localparam int unsigned ErrRange    = soc_regs_pkg::UCM_STATUS_ERR_RANGE_LSB - soc_regs_pkg::UCM_STATUS_ERR_CMD_LSB;
  localparam logic [7:0]  ErrSticky   = 8'((1 << ErrBusy) | (1 << ErrRange));  // kept when a command starts

  assign qstep_o      = cam_cfg_q[soc_regs_pkg::UCM_CAM_CFG_QSTEP_LSB +: soc_regs_pkg::UCM_CAM_CFG_QSTEP_WIDTH];
  assign alpha_o      = cam_cfg_q[soc_regs_pkg::UCM_CAM_CFG_ALPHA_LSB +: soc_regs_pkg::UCM_CAM_CFG_ALPHA_WIDTH];
  assign linear_o     = cam_cfg_q[soc_regs_pkg::UCM_CAM_CFG_LINEAR_LSB];
  assign vpre_o       = sense_time_q[soc_regs_pkg::UCM_SENSE_TIME_VPRE_LSB +: soc_regs_pkg::UCM_SENSE_TIME_VPRE_WIDTH];
  assign adc_gain_o   = adc_cfg_q[soc_regs_pkg::UCM_ADC_CFG_GAIN_LSB +: soc_regs_pkg::UCM_ADC_CFG_GAIN_WIDTH];
  assign adc_shift_o  = adc_cfg_q[soc_regs_pkg::UCM_ADC_CFG_SHIFT_LSB +: soc_regs_pkg::UCM_ADC_CFG_SHIFT_WIDTH];
  assign adc_bits_o   = ucm_pkg::adc_bits_in_use(adc_cfg_q[soc_regs_pkg::UCM_ADC_CFG_BITS_LSB +: soc_regs_pkg::UCM_ADC_CFG_BITS_WIDTH], AdcBits);
  assign sigma_o      = noise_cfg_q[soc_regs_pkg::UCM_NOISE_CFG_SIGMA_LSB +: soc_regs_pkg::UCM_NOISE_CFG_SIGMA_WIDTH];
  assign read_noise_o = noise_cfg_q[soc_regs_pkg::UCM_NOISE_CFG_READ_NOISE_LSB +: soc_regs_pkg::UCM_NOISE_CFG_READ_NOISE_WIDTH];
  assign stuck_rate_o = noise_cfg_q[soc_regs_pkg::UCM_NOISE_CFG_STUCK_RATE_LSB +: soc_regs_pkg::UCM_NOISE_CFG_STUCK_RATE_WIDTH];
  assign pos_o        = pos_q;
  assign acc_init_o   = acc_init_q;
  assign threshold_o  = threshold_q;
  assign seed_o       = seed_q;
  assign key_o        = key_q;
  assign query_o      = query_q;
  assign step_o       = step_q[step_bank_i];
  assign irq_o        = done_q && irq_enable_q;

  // ------------------------------------------------------------ address decode
  logic [15:0] off;
  logic        bus_wr, bus_rd;
  assign off    = req_i.addr[15:0];
  assign bus_wr = req_i.req && req_i.we;
  assign bus_rd = req_i.req && !req_i.we;

  // The windows from the register map: an offset is in one when its bits
  // above the window's size match its base; a word's index within it.
  function automatic logic in_window(logic [15:0] o, int unsigned base, int unsigned size);
    in_window = (32'(o) & ~(size - 1)) == base;
  endfunction
  function automatic logic [31:0] word_in(logic [15:0] o, int unsigned size);
    word_in = (32'(o) & (size - 1)) >> 2;
  endfunction
`ifndef SYNTHESIS
  if (soc_regs_pkg::UCM_STEP_WINDOW_SIZE != soc_regs_pkg::UCM_KEY_WINDOW_SIZE ||
      soc_regs_pkg::UCM_KEY_WINDOW_SIZE != soc_regs_pkg::UCM_QUERY_WINDOW_SIZE ||
      soc_regs_pkg::UCM_LIST_WINDOW_SIZE != soc_regs_pkg::UCM_SCORE_WINDOW_SIZE) begin : g_bad_windows
    $error("ucm_regs: STEP, KEY and QUERY (and LIST and SCORE) share a window size");
  end
`endif
  localparam int unsigned SmallWindow = soc_regs_pkg::UCM_STEP_WINDOW_SIZE;
  localparam int unsigned SlotWindow  = soc_regs_pkg::UCM_LIST_WINDOW_SIZE;
  wire [31:0] word = word_in(off, SmallWindow);  // the word in a small window
  wire [31:0] slot = word_in(off, SlotWindow);   // the slot of a LIST or SCORE word
  wire in_step  = in_window(off, soc_regs_pkg::UCM_STEP_WINDOW, SmallWindow) && (word < Banks);
  wire in_key   = in_window(off, soc_regs_pkg::UCM_KEY_WINDOW, SmallWindow) && (word * 4 < Dim);
  wire in_query = in_window(off, soc_regs_pkg::UCM_QUERY_WINDOW, SmallWindow) && (word * 4 < Dim);
  wire in_list  = in_window(off, soc_regs_pkg::UCM_LIST_WINDOW, SlotWindow) && (slot < Slots);
  wire in_score = in_window(off, soc_regs_pkg::UCM_SCORE_WINDOW, SlotWindow) && (slot < Slots);
  wire in_reg   = in_window(off, soc_regs_pkg::UCM_REGS_WINDOW, soc_regs_pkg::UCM_REGS_WINDOW_SIZE);
  assign window_idx_o = 16'(slot);
  assign list_write_o = !busy_i && bus_wr && in_list;

  wire [11:0] reg_off    = 12'(32'(off) & (soc_regs_pkg::UCM_REGS_WINDOW_SIZE - 1));
  wire        in_counter = (reg_off >= soc_regs_pkg::UCM_CYC_WRITE_OFFSET) &&
                           (reg_off < soc_regs_pkg::UCM_CYC_WRITE_OFFSET + 12'(4 * ucm_pkg::Counters));
  assign counter_idx_o = 4'((reg_off - soc_regs_pkg::UCM_CYC_WRITE_OFFSET) >> 2);

  wire reg_write = !busy_i && bus_wr && in_reg;
  assign cmd_start_o      = reg_write && reg_off == soc_regs_pkg::UCM_CMD_OFFSET;
  assign seed_write_o     = reg_write && reg_off == soc_regs_pkg::UCM_SEED_OFFSET;
  assign clear_counters_o = reg_write && reg_off == soc_regs_pkg::UCM_CTRL_OFFSET && req_i.wdata[soc_regs_pkg::UCM_CTRL_CLEAR_COUNTERS_LSB];

  // While a command runs only STATUS and IRQ_ENABLE may be written and the
  // LIST / SCORE windows not read: anything else sets ERR_BUSY and is dropped.
  wire wr_while_busy = busy_i && bus_wr && (in_step || in_key || in_query || in_list ||
                       (in_reg && reg_off != soc_regs_pkg::UCM_STATUS_OFFSET && reg_off != soc_regs_pkg::UCM_IRQ_ENABLE_OFFSET));
  wire rd_while_busy = busy_i && bus_rd && (in_list || in_score);

  logic reg_writable, reg_readable;
  always_comb begin : c_access
    reg_writable = 1'b0;
    reg_readable = 1'b1;
    unique case (reg_off)
      soc_regs_pkg::UCM_CMD_OFFSET, soc_regs_pkg::UCM_STATUS_OFFSET, soc_regs_pkg::UCM_IRQ_ENABLE_OFFSET, soc_regs_pkg::UCM_POS_OFFSET, soc_regs_pkg::UCM_ACC_INIT_OFFSET,
      soc_regs_pkg::UCM_THRESHOLD_OFFSET, soc_regs_pkg::UCM_CAM_CFG_OFFSET, soc_regs_pkg::UCM_ADC_CFG_OFFSET, soc_regs_pkg::UCM_NOISE_CFG_OFFSET,
      soc_regs_pkg::UCM_SEED_OFFSET, soc_regs_pkg::UCM_SENSE_TIME_OFFSET, soc_regs_pkg::UCM_SENSE_CAP_OFFSET: reg_writable = 1'b1;
      soc_regs_pkg::UCM_CTRL_OFFSET: begin
        reg_writable = 1'b1;
        reg_readable = 1'b0;
      end
      soc_regs_pkg::UCM_GEOM_OFFSET, soc_regs_pkg::UCM_SHAPE_OFFSET, soc_regs_pkg::UCM_CONV_OFFSET, soc_regs_pkg::UCM_RESULT_OFFSET, soc_regs_pkg::UCM_SLOT_META_OFFSET,
      soc_regs_pkg::UCM_SLOT_ACC_OFFSET, soc_regs_pkg::UCM_VALID_COUNT_OFFSET: ;
      default: reg_readable = in_counter;
    endcase
  end

  always_comb begin : c_read
    rsp_o = '0;
    if (req_i.req) begin
      if (in_reg) begin
        rsp_o.err = req_i.we ? !reg_writable : !reg_readable;
        if (in_counter) rsp_o.rdata = counter_i;
        unique case (reg_off)
          soc_regs_pkg::UCM_GEOM_OFFSET:        rsp_o.rdata = GeomWord;
          soc_regs_pkg::UCM_SHAPE_OFFSET:       rsp_o.rdata = ShapeWord;
          soc_regs_pkg::UCM_CONV_OFFSET:        rsp_o.rdata = ConvWord;
          soc_regs_pkg::UCM_CMD_OFFSET:         rsp_o.rdata = cmd_q;
          soc_regs_pkg::UCM_STATUS_OFFSET: begin
            rsp_o.rdata[soc_regs_pkg::UCM_STATUS_BUSY_LSB] = busy_i;
            rsp_o.rdata[soc_regs_pkg::UCM_STATUS_DONE_LSB] = done_q;
            rsp_o.rdata[soc_regs_pkg::UCM_STATUS_ERR_CMD_LSB +: 8] = err_q;
          end
          soc_regs_pkg::UCM_RESULT_OFFSET:      rsp_o.rdata = result_q;
          soc_regs_pkg::UCM_IRQ_ENABLE_OFFSET:  rsp_o.rdata = {31'b0, irq_enable_q};
          soc_regs_pkg::UCM_POS_OFFSET:         rsp_o.rdata = {16'b0, pos_q};
          soc_regs_pkg::UCM_ACC_INIT_OFFSET:    rsp_o.rdata = acc_init_q;
          soc_regs_pkg::UCM_THRESHOLD_OFFSET:   rsp_o.rdata = threshold_q;
          soc_regs_pkg::UCM_CAM_CFG_OFFSET:     rsp_o.rdata = 32'(cam_cfg_q);
          soc_regs_pkg::UCM_ADC_CFG_OFFSET:     rsp_o.rdata = 32'(adc_cfg_q);
          soc_regs_pkg::UCM_SENSE_TIME_OFFSET:  rsp_o.rdata = 32'(sense_time_q);
          soc_regs_pkg::UCM_SENSE_CAP_OFFSET:   rsp_o.rdata = 32'(sense_cap_q);
          soc_regs_pkg::UCM_NOISE_CFG_OFFSET:   rsp_o.rdata = noise_cfg_q;
          soc_regs_pkg::UCM_SEED_OFFSET:        rsp_o.rdata = seed_q;
          soc_regs_pkg::UCM_SLOT_META_OFFSET:   rsp_o.rdata = slot_meta_q;
          soc_regs_pkg::UCM_SLOT_ACC_OFFSET:    rsp_o.rdata = slot_acc_q;
          soc_regs_pkg::UCM_VALID_COUNT_OFFSET: rsp_o.rdata = slot_valid_count_q;
          default: ;
        endcase
      end else if (in_step) begin
        rsp_o.rdata = 32'(step_q[BankW'(word)]) << soc_regs_pkg::UCM_STEP_VALUE_LSB;
      end else if (in_key) begin
        rsp_o.rdata = key_q[32'(word) * 32 +: 32];
      end else if (in_query) begin
        rsp_o.rdata = query_q[32'(word) * 32 +: 32];
      end else if (in_list) begin
        rsp_o.rdata = busy_i ? 32'b0 : list_rdata_i;
      end else if (in_score) begin
        rsp_o.err   = req_i.we;
        rsp_o.rdata = busy_i ? 32'b0 : score_rdata_i;
      end else begin
        rsp_o.err = 1'b1;
      end
    end
  end

  // ------------------------------------------------------------ the sense line's trim
  // Writes out of range are dropped (ERR_RANGE). The rate and the weight are
  // divisions by trim values, taken from a reciprocal ROM: its two reads
  // and t_s * SENSE_RATE_K in one cycle, the products in the next. A
  // command's first use of them comes cycles after its start.
  localparam int unsigned CapW = soc_regs_pkg::UCM_SENSE_CAP_CSL_WIDTH;
  wire [15:0]     wr_ts   = req_i.wdata[soc_regs_pkg::UCM_SENSE_TIME_TS_LSB +: soc_regs_pkg::UCM_SENSE_TIME_TS_WIDTH];
  wire [11:0]     wr_vpre = req_i.wdata[soc_regs_pkg::UCM_SENSE_TIME_VPRE_LSB +: soc_regs_pkg::UCM_SENSE_TIME_VPRE_WIDTH];
  wire [CapW-1:0] wr_csl  = req_i.wdata[soc_regs_pkg::UCM_SENSE_CAP_CSL_LSB +: CapW];
  wire [CapW-1:0] wr_cacc = req_i.wdata[soc_regs_pkg::UCM_SENSE_CAP_CACC_LSB +: CapW];
  wire time_ok = 32'(wr_ts) >= soc_regs_pkg::UCM_SENSE_TS_MIN_PS && 32'(wr_ts) <= soc_regs_pkg::UCM_SENSE_TS_MAX_PS &&
                 32'(wr_vpre) >= soc_regs_pkg::UCM_SENSE_VPRE_MIN_MV && 32'(wr_vpre) <= soc_regs_pkg::UCM_SENSE_VPRE_MAX_MV;
  wire cap_ok  = 32'(wr_csl) >= soc_regs_pkg::UCM_SENSE_CAP_MIN_FF && 32'(wr_cacc) >= soc_regs_pkg::UCM_SENSE_CAP_MIN_FF;

  wire [15:0]     ts   = sense_time_q[soc_regs_pkg::UCM_SENSE_TIME_TS_LSB +: soc_regs_pkg::UCM_SENSE_TIME_TS_WIDTH];
  wire [CapW-1:0] csl  = sense_cap_q[soc_regs_pkg::UCM_SENSE_CAP_CSL_LSB +: CapW];
  wire [CapW-1:0] cacc = sense_cap_q[soc_regs_pkg::UCM_SENSE_CAP_CACC_LSB +: CapW];
  logic [ucm_pkg::RecipW-1:0] recip_csl_q, recip_sum_q;
  logic [ucm_pkg::RecipW-1:0] recip_rom [ucm_pkg::RecipN];  // a ROM: block RAM or LUTs
  initial for (int unsigned n = 0; n < ucm_pkg::RecipN; n++) recip_rom[n] = ucm_pkg::recip(n);
  logic [ucm_pkg::RateW-1:0]  ts_k_q;
  logic [49:0]                rate_product;
  logic [32:0]                weight_product;
  assign rate_product   = 50'(ts_k_q) * 50'(recip_csl_q);
  assign weight_product = 33'(csl) * 33'(recip_sum_q);

  always_ff @(posedge clk_i) begin : s_trim
    recip_csl_q    <= recip_rom[9'(csl)];
    recip_sum_q    <= recip_rom[9'(csl) + 9'(cacc)];
    ts_k_q         <= ucm_pkg::RateW'(32'(ts) * soc_regs_pkg::UCM_SENSE_RATE_K);
    sense_rate_o   <= ucm_pkg::RateW'(rate_product >> 24);
    share_weight_o <= ucm_pkg::WeightW'(weight_product >> 8);
  end

  // ------------------------------------------------------------ command checks
  logic [6:0] cmd_err;  // ERR_CMD, ERR_BANK, ERR_SLOT, ERR_K, ERR_COUNT
  assign cmd_op_o    = req_i.wdata[soc_regs_pkg::UCM_CMD_OP_LSB +: soc_regs_pkg::UCM_CMD_OP_WIDTH];
  assign cmd_flags_o = req_i.wdata[soc_regs_pkg::UCM_CMD_FLAGS_LSB +: 3];
  assign cmd_bank_o  = BankW'(req_i.wdata[soc_regs_pkg::UCM_CMD_BANK_LSB +: soc_regs_pkg::UCM_CMD_BANK_WIDTH]);
  assign cmd_arg_o   = req_i.wdata[soc_regs_pkg::UCM_CMD_ARG_LSB +: soc_regs_pkg::UCM_CMD_ARG_WIDTH];

  always_comb begin : c_command
    logic [soc_regs_pkg::UCM_CMD_BANK_WIDTH-1:0] bank;
    bank        = req_i.wdata[soc_regs_pkg::UCM_CMD_BANK_LSB +: soc_regs_pkg::UCM_CMD_BANK_WIDTH];
    cmd_err     = '0;
    cmd_state_o = ucm_pkg::ST_IDLE;
    unique case (cmd_op_o)
      4'(soc_regs_pkg::UCM_OP_WRITE_KEY):   cmd_state_o = ucm_pkg::ST_WRITE;
      4'(soc_regs_pkg::UCM_OP_SLOT_CTRL):   cmd_state_o = ucm_pkg::ST_CTRL;
      4'(soc_regs_pkg::UCM_OP_SEARCH):      cmd_state_o = ucm_pkg::ST_SCORE;
      4'(soc_regs_pkg::UCM_OP_EXACT),
      4'(soc_regs_pkg::UCM_OP_ACC_ADD):     cmd_state_o = ucm_pkg::ST_VALIDATE;
      4'(soc_regs_pkg::UCM_OP_FIND_VICTIM): cmd_state_o = ucm_pkg::ST_VICTIM;
      4'(soc_regs_pkg::UCM_OP_RESET_BANK):  cmd_state_o = ucm_pkg::ST_RESET;
      4'(soc_regs_pkg::UCM_OP_READ_SLOT):   cmd_state_o = ucm_pkg::ST_READ;
      default:                cmd_err[0] = 1'b1;
    endcase
    if (cmd_err[0]) begin
      cmd_state_o = ucm_pkg::ST_IDLE;
    end else if (32'(bank) >= Banks) begin
      cmd_err[1] = 1'b1;
    end else if ((cmd_state_o == ucm_pkg::ST_WRITE || cmd_state_o == ucm_pkg::ST_CTRL ||
                  cmd_state_o == ucm_pkg::ST_READ) && 32'(cmd_arg_o) >= Slots) begin
      cmd_err[ErrSlot] = 1'b1;
    end else if (cmd_state_o == ucm_pkg::ST_SCORE && (cmd_arg_o == 16'd0 || cmd_arg_o > cmd_bank_valid_i)) begin
      cmd_err[3] = 1'b1;
    end else if (cmd_state_o == ucm_pkg::ST_VALIDATE && (cmd_arg_o == 16'd0 || 32'(cmd_arg_o) > Slots)) begin
      cmd_err[4] = 1'b1;
    end
    if (cmd_err != '0) cmd_state_o = ucm_pkg::ST_IDLE;
  end

  // ------------------------------------------------------------ registers
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_regs
    if (!rst_ni) begin
      irq_enable_q <= 1'b0;
      done_q       <= 1'b0;
      err_q        <= '0;
      cmd_q        <= '0;
      result_q     <= '0;
      pos_q        <= '0;
      acc_init_q   <= '0;
      threshold_q  <= '0;
      cam_cfg_q    <= $bits(cam_cfg_q)'(1 << soc_regs_pkg::UCM_CAM_CFG_QSTEP_LSB);
      sense_time_q <= $bits(sense_time_q)'(soc_regs_pkg::UCM_SENSE_TS_RESET_PS << soc_regs_pkg::UCM_SENSE_TIME_TS_LSB |
                                           soc_regs_pkg::UCM_SENSE_VPRE_RESET_MV << soc_regs_pkg::UCM_SENSE_TIME_VPRE_LSB);
      sense_cap_q  <= $bits(sense_cap_q)'(soc_regs_pkg::UCM_SENSE_CSL_RESET_FF << soc_regs_pkg::UCM_SENSE_CAP_CSL_LSB |
                                          soc_regs_pkg::UCM_SENSE_CACC_RESET_FF << soc_regs_pkg::UCM_SENSE_CAP_CACC_LSB);
      adc_cfg_q    <= 17'd1;
      noise_cfg_q  <= '0;
      seed_q       <= '0;
      slot_meta_q  <= '0;
      slot_acc_q   <= '0;
      slot_valid_count_q <= '0;
      for (int unsigned b = 0; b < Banks; b++) step_q[b] <= '0;
      key_q   <= '0;
      query_q <= '0;
    end else if (req_i.req || busy_i) begin  // nothing changes while idle and unaddressed
      if (wr_while_busy || rd_while_busy) err_q[ErrBusy] <= 1'b1;
      if (bus_wr && !busy_i) begin
        for (int unsigned i = 0; i < 4; i++) begin
          if (req_i.be[i] && in_key)   key_q[(32'(word) * 4 + i) * 8 +: 8]   <= req_i.wdata[8*i +: 8];
          if (req_i.be[i] && in_query) query_q[(32'(word) * 4 + i) * 8 +: 8] <= req_i.wdata[8*i +: 8];
        end
        if (in_step && req_i.be[soc_regs_pkg::UCM_STEP_VALUE_LSB / 8])
          step_q[BankW'(word)] <= req_i.wdata[soc_regs_pkg::UCM_STEP_VALUE_LSB +: soc_regs_pkg::UCM_STEP_VALUE_WIDTH];
        if (in_reg) begin
          unique case (reg_off)
            soc_regs_pkg::UCM_POS_OFFSET:       pos_q       <= req_i.wdata[15:0];
            soc_regs_pkg::UCM_ACC_INIT_OFFSET:  acc_init_q  <= req_i.wdata;
            soc_regs_pkg::UCM_THRESHOLD_OFFSET: threshold_q <= req_i.wdata;
            soc_regs_pkg::UCM_CAM_CFG_OFFSET:   cam_cfg_q   <= req_i.wdata[$bits(cam_cfg_q)-1:0];
            soc_regs_pkg::UCM_ADC_CFG_OFFSET:   adc_cfg_q   <= req_i.wdata[$bits(adc_cfg_q)-1:0];
            soc_regs_pkg::UCM_NOISE_CFG_OFFSET: noise_cfg_q <= req_i.wdata;
            soc_regs_pkg::UCM_SEED_OFFSET:      seed_q      <= req_i.wdata;
            soc_regs_pkg::UCM_SENSE_TIME_OFFSET: if (time_ok) sense_time_q <= req_i.wdata[$bits(sense_time_q)-1:0];
                                                 else err_q[ErrRange] <= 1'b1;
            soc_regs_pkg::UCM_SENSE_CAP_OFFSET:  if (cap_ok) sense_cap_q <= req_i.wdata[$bits(sense_cap_q)-1:0];
                                                 else err_q[ErrRange] <= 1'b1;
            default: ;
          endcase
        end
      end
      if (bus_wr && in_reg && reg_off == soc_regs_pkg::UCM_IRQ_ENABLE_OFFSET) irq_enable_q <= req_i.wdata[0];
      if (bus_wr && in_reg && reg_off == soc_regs_pkg::UCM_STATUS_OFFSET) begin
        if (req_i.wdata[soc_regs_pkg::UCM_STATUS_DONE_LSB]) done_q <= 1'b0;
        err_q <= err_q & ~req_i.wdata[soc_regs_pkg::UCM_STATUS_ERR_CMD_LSB +: 8];
      end
      // A command starts (or is refused, done at once): errors of the last
      // command clear, ERR_BUSY stays until software clears it.
      if (cmd_start_o) begin
        cmd_q  <= req_i.wdata;
        done_q <= (cmd_err != '0);
        err_q  <= (err_q & ErrSticky) | 8'(cmd_err);
      end
      if (finish_i) done_q <= 1'b1;
      if (err_slot_i) err_q[ErrSlot] <= 1'b1;
      if (err_novictim_i) err_q[ErrNoVictim] <= 1'b1;
      if (result_we_i) result_q <= result_i;
      if (slot_read_i) begin
        slot_meta_q <= 32'(slot_meta_i.pos) << soc_regs_pkg::UCM_SLOT_META_POS_LSB |
                       32'(slot_meta_i.valid) << soc_regs_pkg::UCM_SLOT_META_VALID_LSB |
                       32'(slot_meta_i.protect) << soc_regs_pkg::UCM_SLOT_META_PROTECT_LSB;
        slot_acc_q  <= slot_meta_i.acc;
        slot_valid_count_q <= 32'(slot_bank_valid_i);
      end
    end
  end

endmodule : ucm_regs
