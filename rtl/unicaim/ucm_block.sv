// The UniCAIM array block: Banks x Slots x Dim emulated FeFET cells with
// per-slot valid / protect / position / accumulator, driven by commands on
// the SoC bus. docs/unicaim.md gives the registers and the arithmetic; the
// golden model firmware/lib/unicaim/ucm_model.c is the same behaviour in C,
// cycle counts included.
//
// Storage is split by lane (ucm_lane): slot s lives in lane s % Lanes, row
// s / Lanes, so a scan reads Lanes slots per clock from block RAM. This
// module is the controller: every command is a fixed sequence of passes (a
// pass reads Rows rows and needs one more cycle for the read latency), which
// makes its cycle count a formula (firmware/lib/unicaim/ucm_cycles.h). The
// software registers are ucm_regs, the top-k and min-detect ucm_select, the
// counters ucm_counters.
module ucm_block #(
  parameter int unsigned Banks,
  parameter int unsigned Slots,
  parameter int unsigned Dim,
  parameter int unsigned CellBits,  // 1 or 3
  parameter int unsigned QBits,     // query bit planes, 2..8
  parameter int unsigned AdcBits,
  parameter int unsigned AdcCount,  // >= Lanes
  parameter int unsigned Lanes      // power of two dividing Slots (limits checked below)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  soc_bus_pkg::bus_req_t req_i,   // registered; addr = offset in the block
  output soc_bus_pkg::bus_rsp_t rsp_o,
  output logic                  irq_o
);

  localparam int unsigned Rows        = Slots / Lanes;
  localparam int unsigned LaneBits    = $clog2(Lanes);
  localparam int unsigned LaneW       = ucm_pkg::index_bits(Lanes);  // a lane index
  localparam int unsigned BankW       = ucm_pkg::index_bits(Banks);
  localparam int unsigned RowAw       = ucm_pkg::index_bits(Rows);
  localparam int unsigned MetaAw      = ucm_pkg::index_bits(Banks * Rows);
  localparam int unsigned ScoreBits   = ucm_pkg::score_bits(Dim);
  localparam int unsigned PlaneCycles = (QBits + Lanes - 1) / Lanes;
  localparam int unsigned RowW        = Dim * 6;
  localparam int unsigned MetaW       = ucm_pkg::SlotMetaW;
  localparam int unsigned SearchW     = ScoreBits + 2;  // {forced, cand, S}

  // The read-only geometry words, each field where the register map puts it
  // (the limits checked below keep every value inside its field).
  function automatic logic [31:0] at(int unsigned lsb, int unsigned value);
    at = 32'(value) << lsb;
  endfunction
  localparam logic [31:0] GeomWord  = at(soc_regs_pkg::UCM_GEOM_SLOTS_LSB, Slots) |
                                      at(soc_regs_pkg::UCM_GEOM_BANKS_LSB, Banks);
  localparam logic [31:0] ShapeWord = at(soc_regs_pkg::UCM_SHAPE_DIM_LSB, Dim) |
                                      at(soc_regs_pkg::UCM_SHAPE_CELL_BITS_LSB, CellBits) |
                                      at(soc_regs_pkg::UCM_SHAPE_Q_BITS_LSB, QBits) |
                                      at(soc_regs_pkg::UCM_SHAPE_LANES_LSB, Lanes);
  localparam logic [31:0] ConvWord  = at(soc_regs_pkg::UCM_CONV_ADC_COUNT_LSB, AdcCount) |
                                      at(soc_regs_pkg::UCM_CONV_ADC_BITS_LSB, AdcBits) |
                                      at(soc_regs_pkg::UCM_CONV_SCORE_BITS_LSB, ScoreBits);

  // Parameter limits, checked at elaboration: the golden model's
  // ucm_model_init refuses the same geometries, and the registers' 16-bit
  // slot and count fields and 8-bit bank field hold these.
  if (Banks < 1 || Banks > 256) begin : g_bad_banks
    $fatal(1, "ucm_block: Banks = %0d is outside 1..256", Banks);
  end
  if (Slots < 1 || Slots > 4096 || Slots % Lanes != 0) begin : g_bad_slots
    $fatal(1, "ucm_block: Slots = %0d is outside 1..4096 or not a multiple of Lanes", Slots);
  end
  if (Dim < 4 || Dim > 1024 || Dim % 4 != 0) begin : g_bad_dim
    $fatal(1, "ucm_block: Dim = %0d is not a multiple of 4 in 4..1024", Dim);
  end
  if (CellBits != 1 && CellBits != 3) begin : g_bad_cell_bits
    $fatal(1, "ucm_block: CellBits = %0d (1 or 3)", CellBits);
  end
  if (QBits < 2 || QBits > 8) begin : g_bad_q_bits
    $fatal(1, "ucm_block: QBits = %0d is outside 2..8", QBits);
  end
  if (AdcBits < 2 || AdcBits > 16) begin : g_bad_adc_bits
    $fatal(1, "ucm_block: AdcBits = %0d is outside 2..16", AdcBits);
  end
  if (AdcCount < Lanes || AdcCount > 65535) begin : g_bad_adc_count
    $fatal(1, "ucm_block: AdcCount = %0d is below Lanes or above 65535", AdcCount);
  end
  if (Lanes < 1 || Lanes > 128 || (Lanes & (Lanes - 1)) != 0) begin : g_bad_lanes
    $fatal(1, "ucm_block: Lanes = %0d is not a power of two in 1..128", Lanes);
  end

  // ------------------------------------------------------------ software interface
  logic                 cmd_start, seed_write, clear_counters;
  ucm_pkg::state_e      cmd_state;
  logic [3:0]           cmd_op;
  logic [2:0]           cmd_flags;
  logic [BankW-1:0]     cmd_bank;
  logic [15:0]          cmd_arg, pos_reg;
  logic [31:0]          acc_init, threshold, seed;
  logic [7:0]           qstep, adc_gain, sigma, read_noise, step;
  logic [4:0]           alpha, adc_bits;
  logic                 linear;
  logic [ucm_pkg::RateW-1:0]   sense_rate;
  logic [ucm_pkg::WeightW-1:0] share_weight;
  logic [11:0]          vpre;
  logic [3:0]           adc_shift;
  logic [15:0]          stuck_rate;
  logic [Dim*8-1:0]     key, query;
  logic                 finish, err_slot, err_novictim, result_we, slot_read;
  logic [31:0]          result;
  logic [15:0]          window_idx;
  logic                 list_bus_write;
  logic [3:0]           counter_idx;
  logic [31:0]          counter_rdata;
  logic [31:0]          list_rd [Lanes], score_rd [Lanes];

  // Engine state.
  ucm_pkg::state_e  state_q /* verilator public_flat_rd */;  // the simulator skips idle cycles on it
  logic [3:0]       op_q;
  logic [2:0]       flags_q;
  logic [BankW-1:0] bank_q;   // checked in range when the command starts
  logic [15:0]      arg_q;
  logic [15:0]      cycle_q;  // the cycle within the current pass
  logic [15:0]      valid_count_q [Banks];

  wire busy = (state_q != ucm_pkg::ST_IDLE);
  wire [15:0] bank_valid = valid_count_q[bank_q];  // the command's bank's valid slots

  wire f_protect   = |(flags_q & 3'(soc_regs_pkg::UCM_F_PROTECT));
  wire f_invalid   = |(flags_q & 3'(soc_regs_pkg::UCM_F_INVALIDATE));
  wire f_threshold = |(flags_q & 3'(soc_regs_pkg::UCM_F_THRESHOLD));
  wire f_force     = |(flags_q & 3'(soc_regs_pkg::UCM_F_FORCE_PROTECTED));
  wire f_accum     = |(flags_q & 3'(soc_regs_pkg::UCM_F_ACCUMULATE));
  wire f_ideal     = |(flags_q & 3'(soc_regs_pkg::UCM_F_IDEAL));
  wire op_exact    = (op_q == 4'(soc_regs_pkg::UCM_OP_EXACT));

  function automatic logic [LaneW-1:0] lane_of(logic [15:0] slot);
    lane_of = LaneW'(slot & 16'(Lanes - 1));
  endfunction

  logic [MetaAw-1:0] bank_base;
  assign bank_base = MetaAw'(bank_q) * MetaAw'(Rows);

  function automatic logic [MetaAw-1:0] meta_addr(logic [MetaAw-1:0] base, logic [15:0] row);
    meta_addr = base + MetaAw'(row);
  endfunction

  // Query levels for the CAM (-2..2 by QSTEP), three bits per dimension,
  // taken as a command starts: QUERY and CAM_CFG cannot change while busy.
  // A product conductance x level is then a shift and a complement, with
  // the complements' +1s counted once (qneg_q) and added after the sum.
  // The sense line's current has a part that does not depend on the key:
  // the query's drive, 31 x sum |level| (drive_q).
  logic [Dim*3-1:0] qlevel_q;
  logic [15:0]      qneg_q;
  logic [ScoreBits-1:0] drive_q;

  function automatic logic [ScoreBits-1:0] query_drive(logic [Dim*3-1:0] levels);
    logic [2:0] level, magnitude;
    query_drive = '0;
    for (int unsigned d = 0; d < Dim; d++) begin
      level       = levels[d*3 +: 3];
      magnitude   = level[2] ? 3'(-$signed(level)) : level;
      query_drive = query_drive + ScoreBits'(magnitude);
    end
    query_drive = query_drive * ScoreBits'(ucm_pkg::CellMax);
  endfunction

  function automatic logic [15:0] negative_levels(logic [Dim*3-1:0] levels);
    negative_levels = '0;
    for (int unsigned d = 0; d < Dim; d++) negative_levels = negative_levels + 16'(levels[d*3+2]);
  endfunction

  // ------------------------------------------------------------ lanes
  logic [MetaAw-1:0]     key_raddr, meta_raddr, meta_waddr, key_waddr;
  logic [Lanes-1:0]      key_we, meta_we, search_we, list_we, score_we;
  logic [RowW-1:0]       key_rdata [Lanes];
  logic [MetaW-1:0]      meta_rdata [Lanes];
  ucm_pkg::meta_op_e     meta_op;
  logic [RowAw-1:0]      search_raddr, search_waddr;
  logic [SearchW-1:0]    search_rdata [Lanes], search_wdata [Lanes];
  logic [RowAw-1:0]      list_waddr [Lanes], score_waddr [Lanes];
  logic [31:0]           list_wdata [Lanes], score_wdata [Lanes];
  logic [RowAw-1:0]      window_row, list_row;
  logic signed [31:0]    lane_score [Lanes], lane_code [Lanes];
  logic [SearchW-1:0]    lane_entry [Lanes];    // a scored row's {forced, cand, S}
  logic [15:0]           list_idx;   // the LIST entry the engine reads
  logic [31:0]           list_entry;
  logic [RowW-1:0]       row_q;      // the key row a write assembles
  logic [31:0]           noise_base_q;
  logic [7:0]            group_q;    // EXACT: the bit-plane group fetched
  logic [LaneW-1:0]      exact_lane_q;
  // Per-lane values flattened for ucm_select.
  logic [Lanes*SearchW-1:0] search_flat;
  logic [Lanes-1:0]         scored_forced, scored_cand;
  logic [Lanes*32-1:0]      score_flat, acc_flat;
  logic [Lanes*16-1:0]      pos_flat;
  logic [Lanes-1:0]         scan_valid, scan_protect;
  // Digital accumulation (ACC_ADD): the addend onto a valid slot's acc, saturating.
  ucm_pkg::slot_meta_t      entry_meta;   // the LIST entry's slot
  logic [32:0]              acc_sum;
  logic [31:0]              added_acc;

  for (genvar l = 0; l < Lanes; l++) begin : g_lane
    ucm_lane #(
      .Banks(Banks), .Slots(Slots), .Dim(Dim), .QBits(QBits), .Lanes(Lanes), .Lane(l)
    ) u_lane (
      .clk_i, .state_i(state_q), .mem_re_i(busy),
      .key_we_i(key_we[l]), .key_waddr_i(key_waddr), .key_wdata_i(row_q), .key_raddr_i(key_raddr),
      .key_rdata_o(key_rdata[l]),
      .meta_we_i(meta_we[l]), .meta_waddr_i(meta_waddr), .meta_op_i(meta_op), .new_acc_i(acc_init),
      .new_pos_i(pos_reg), .protect_i(f_protect), .invalidate_i(f_invalid),
      .added_acc_i(added_acc),
      .meta_raddr_i(meta_raddr), .meta_rdata_o(meta_rdata[l]),
      .search_we_i(search_we[l]), .search_waddr_i(search_waddr), .search_wdata_i(search_wdata[l]),
      .search_raddr_i(search_raddr), .search_rdata_o(search_rdata[l]),
      .list_we_i(list_we[l]), .list_waddr_i(list_waddr[l]), .list_wdata_i(list_wdata[l]), .list_raddr_i(list_row),
      .list_rdata_o(list_rd[l]),
      .score_we_i(score_we[l]), .score_waddr_i(score_waddr[l]), .score_wdata_i(score_wdata[l]),
      .score_raddr_i(window_row), .score_rdata_o(score_rd[l]),
      .qlevel_i(qlevel_q), .qneg_i(qneg_q), .noise_base_i(noise_base_q), .read_noise_i(read_noise),
      .force_protected_i(f_force), .alpha_i(alpha), .linear_i(linear), .drive_i(drive_q),
      .sense_rate_i(sense_rate), .share_weight_i(share_weight), .vpre_i(vpre),
      .score_o(lane_score[l]), .entry_o(lane_entry[l]),
      .valid_o(scan_valid[l]), .protect_o(scan_protect[l]), .acc_o(acc_flat[l*32 +: 32]),
      .pos_o(pos_flat[l*16 +: 16]),
      .exact_row_i(key_rdata[exact_lane_q]), .plane_group_i(group_q), .query_i(query), .ideal_i(f_ideal),
      .adc_gain_i(adc_gain), .adc_shift_i(adc_shift), .adc_bits_i(adc_bits), .code_o(lane_code[l])
    );
    assign scored_forced[l]                  = lane_entry[l][SearchW-1];
    assign scored_cand[l]                    = lane_entry[l][SearchW-2];
    assign score_flat[l*32 +: 32]            = lane_score[l];
    assign search_flat[l*SearchW +: SearchW] = search_rdata[l];
  end

  // LIST and SCORE windows: the bus reads them only while idle, the engine
  // only while busy.
  assign window_row = RowAw'(window_idx >> LaneBits);
  assign list_row   = busy ? RowAw'(list_idx >> LaneBits) : window_row;
  assign list_entry = list_rd[lane_of(list_idx)];
  wire [15:0] entry_slot   = list_entry[soc_regs_pkg::UCM_LIST_SLOT_LSB +: soc_regs_pkg::UCM_LIST_SLOT_WIDTH];
  wire [15:0] entry_addend = list_entry[soc_regs_pkg::UCM_LIST_ADDEND_LSB +: soc_regs_pkg::UCM_LIST_ADDEND_WIDTH];
  assign acc_sum   = 33'(entry_meta.acc) + 33'(entry_addend);
  assign added_acc = acc_sum[32] ? 32'hFFFF_FFFF : acc_sum[31:0];

  // ------------------------------------------------------------ draws and key writes
  // PRNG draws. The coordinates are running sums: per-command bases (seed
  // plus serial terms, registered every cycle, so ready when a command
  // starts) and index terms stepping by Lanes (slots, in ucm_lane) or 1
  // (cells) times the index multiplier. A key write mixes the variation and
  // stuck draws of cell cycle_q over two clocks, then turns them into the
  // cell's offset and stuck flag.
  localparam int unsigned WriteCommit = Dim + 3;  // the key write's last cycle

  logic [31:0]        search_term_q, write_term_q, write_base_q, write_index_q;
  logic [31:0]        var_a_q, var_b_q, stuck_a_q, stuck_b_q;
  logic signed [31:0] offset_q;
  logic signed [2:0]  level_q;
  logic [16:0]        stuck_q;  // [15:0] against the rate, [16] the level's sign
  logic [7:0]         write_step_q;
  logic signed [5:0]  new_cell;
  logic [15:0]        level_idx;  // the key component whose level is taken this cycle
  assign level_idx = cycle_q - 16'd2;
  assign new_cell  = ucm_pkg::cell_value(level_q, offset_q, CellBits, stuck_rate, stuck_q);

  always_ff @(posedge clk_i) begin : s_draws
    noise_base_q <= seed + search_term_q + 32'd2 * ucm_pkg::DrawDomainMul;
    write_base_q <= seed + write_term_q;
    write_step_q <= step;  // ready from a key write's second cycle
    if (state_q == ucm_pkg::ST_SCORE && cycle_q == 16'd0) begin
      qneg_q  <= negative_levels(qlevel_q);  // used from cycle 3
      drive_q <= query_drive(qlevel_q);      // used from cycle 4
    end
    if (!busy) write_index_q <= '0;
    if (state_q == ucm_pkg::ST_WRITE) begin
      write_index_q <= write_index_q + ucm_pkg::DrawIndexMul;
      var_a_q   <= ucm_pkg::mix_a(write_base_q + write_index_q);
      stuck_a_q <= ucm_pkg::mix_a(write_base_q + write_index_q + ucm_pkg::DrawDomainMul);
      var_b_q   <= ucm_pkg::mix_b(var_a_q);
      stuck_b_q <= ucm_pkg::mix_b(stuck_a_q);
      offset_q  <= ucm_pkg::noise(ucm_pkg::mix_out(var_b_q), sigma);
      stuck_q   <= 17'(ucm_pkg::mix_out(stuck_b_q));
      level_q   <= ucm_pkg::cell_level(key[(32'(level_idx) % Dim)*8 +: 8], write_step_q, CellBits);
    end
  end

  // ------------------------------------------------------------ pass timing
  // A score pass commits row cycle_q - 7 (cells, then similarity, noise, the
  // sense line's three stages and metadata: ucm_lane), so it takes Rows + 7
  // cycles (ucm_cycles.h).
  localparam int unsigned ScoreLatency = 7;
  wire [15:0] commit_row   = cycle_q - 16'(ScoreLatency);
  wire        score_commit = (cycle_q >= 16'(ScoreLatency));
  wire        score_last   = (cycle_q == 16'(Rows + ScoreLatency - 1));
  wire        last_row     = (cycle_q == 16'(Rows));    // the drain cycle of a one-stage pass
  wire [15:0] scan_row     = cycle_q - 16'd1;           // the row whose data a one-stage pass sees

  // ------------------------------------------------------------ select and min-detect
  logic             skip_radix, radix_done, victim_found;
  logic [Lanes-1:0] take;
  logic [Lanes*16-1:0] take_idx_flat;
  logic [15:0]      emitted, victim_slot;

  ucm_select #(.Dim(Dim), .Lanes(Lanes)) u_select (
    .clk_i, .rst_ni, .state_i(state_q), .start_i(cmd_start), .cnt_i(cycle_q),
    .score_commit_i(score_commit), .score_last_i(score_last), .pass_last_i(last_row),
    .k_i(arg_q), .threshold_i(threshold), .threshold_mode_i(f_threshold),
    .scored_forced_i(scored_forced), .scored_cand_i(scored_cand), .score_i(score_flat), .entry_i(search_flat),
    .valid_i(scan_valid), .protect_i(scan_protect), .acc_i(acc_flat), .pos_i(pos_flat),
    .skip_radix_o(skip_radix), .radix_done_o(radix_done), .take_o(take), .take_idx_o(take_idx_flat),
    .emitted_o(emitted), .victim_found_o(victim_found), .victim_slot_o(victim_slot)
  );

  // ------------------------------------------------------------ exact scores
  // EXACT fetches a plane group (Lanes bit planes) of one listed slot a cycle
  // from its row; ucm_lane sums and converts each plane, and the converted
  // planes are shift-added here with the sign plane negative. ADC rounds open
  // whenever the shared converters run out (counted as the planes are fetched).
  logic [15:0]        entry_q;          // EXACT / ACC_ADD: the LIST entry
  logic               prime_q;          // EXACT: the first cycle, which only fetches
  logic               phase_q;          // ACC_ADD: read, then add
  logic               bad_q;            // VALIDATE: a listed slot is out of range
  logic               exact_issued_q;   // EXACT has fetched its last plane group
  logic               stage1_valid_q, stage2_valid_q;  // EXACT's stages hold a plane group
  logic [7:0]         stage1_group_q, stage2_group_q;
  logic [15:0]        stage1_entry_q, stage2_entry_q;
  logic signed [31:0] exact_acc_q, exact_partial;
  logic [16:0]        room_q, room_n;   // converters left in the current round
  logic [15:0]        conv_n, rounds_n;

  wire exact_issue = (state_q == ucm_pkg::ST_EXACT) && !prime_q && !exact_issued_q;
  wire last_group  = (group_q == 8'(PlaneCycles - 1));
  wire [15:0] fetch_idx = prime_q ? 16'd0 : last_group ? entry_q + 16'd1 : entry_q;

  always_comb begin : c_exact
    logic [31:0] plane;
    logic signed [31:0] weighted;
    plane    = '0;
    weighted = '0;
    exact_partial = '0;
    conv_n = '0;
    if (state_q == ucm_pkg::ST_EXACT) begin
      for (int unsigned l = 0; l < Lanes; l++) begin
        plane    = 32'(stage2_group_q) * Lanes + l;
        weighted = lane_code[l] <<< plane;
        if (plane < QBits) exact_partial = (plane == QBits - 1) ? exact_partial - weighted : exact_partial + weighted;
        if (32'(group_q) * Lanes + l < QBits) conv_n = conv_n + 16'd1;
      end
    end
    if (17'(conv_n) > room_q) begin
      rounds_n = 16'd1;
      room_n   = room_q + 17'(AdcCount) - 17'(conv_n);
    end else begin
      rounds_n = 16'd0;
      room_n   = room_q - 17'(conv_n);
    end
  end

  // ------------------------------------------------------------ memory ports
  logic [15:0]      slot_arg_row;
  logic [LaneW-1:0] slot_arg_lane, entry_lane;
  assign slot_arg_row  = arg_q >> LaneBits;
  assign slot_arg_lane = lane_of(arg_q);
  assign entry_lane    = lane_of(entry_slot);

  ucm_regs #(
    .Banks(Banks), .Slots(Slots), .Dim(Dim), .AdcBits(AdcBits),
    .GeomWord(GeomWord), .ShapeWord(ShapeWord), .ConvWord(ConvWord)
  ) u_regs (
    .clk_i, .rst_ni, .req_i, .rsp_o, .irq_o,
    .busy_i(busy),
    .cmd_start_o(cmd_start), .cmd_state_o(cmd_state), .cmd_op_o(cmd_op), .cmd_flags_o(cmd_flags),
    .cmd_bank_o(cmd_bank), .cmd_arg_o(cmd_arg), .cmd_bank_valid_i(valid_count_q[cmd_bank]),
    .seed_write_o(seed_write), .clear_counters_o(clear_counters),
    .pos_o(pos_reg), .acc_init_o(acc_init), .threshold_o(threshold), .seed_o(seed),
    .qstep_o(qstep), .alpha_o(alpha), .linear_o(linear), .sense_rate_o(sense_rate),
    .share_weight_o(share_weight), .vpre_o(vpre), .adc_gain_o(adc_gain), .adc_shift_o(adc_shift), .adc_bits_o(adc_bits),
    .sigma_o(sigma), .read_noise_o(read_noise), .stuck_rate_o(stuck_rate), .key_o(key), .query_o(query),
    .step_bank_i(bank_q), .step_o(step),
    .finish_i(finish), .err_slot_i(err_slot), .err_novictim_i(err_novictim),
    .result_we_i(result_we), .result_i(result),
    .slot_read_i(slot_read), .slot_meta_i(slot_meta), .slot_bank_valid_i(bank_valid),
    .window_idx_o(window_idx), .list_write_o(list_bus_write),
    .list_rdata_i(list_rd[lane_of(window_idx)]), .score_rdata_i(score_rd[lane_of(window_idx)]),
    .counter_idx_o(counter_idx), .counter_i(counter_rdata)
  );

  // The metadata of the command's slot and of the LIST entry's slot.
  ucm_pkg::slot_meta_t slot_meta;
  assign slot_meta  = meta_rdata[slot_arg_lane];
  assign entry_meta = meta_rdata[entry_lane];

  wire acc_digital = (state_q == ucm_pkg::ST_ACC) && phase_q && entry_meta.valid;

  always_comb begin : c_ports
    key_raddr    = meta_addr(bank_base, cycle_q);
    meta_raddr   = meta_addr(bank_base, cycle_q);
    meta_waddr   = meta_addr(bank_base, commit_row);
    key_waddr    = meta_addr(bank_base, slot_arg_row);
    search_raddr = RowAw'(cycle_q);
    search_waddr = RowAw'(commit_row);
    list_idx     = cycle_q;
    key_we       = '0;
    meta_we      = '0;
    meta_op      = ucm_pkg::META_CLEAR;
    search_we    = '0;
    for (int unsigned l = 0; l < Lanes; l++) search_wdata[l] = '0;
    unique case (state_q)
      ucm_pkg::ST_WRITE, ucm_pkg::ST_CTRL, ucm_pkg::ST_READ: begin
        meta_raddr = meta_addr(bank_base, slot_arg_row);
        meta_waddr = meta_addr(bank_base, slot_arg_row);
        if (state_q == ucm_pkg::ST_WRITE && cycle_q == 16'(WriteCommit)) begin
          key_we[slot_arg_lane]  = 1'b1;
          meta_we[slot_arg_lane] = 1'b1;
          meta_op                = ucm_pkg::META_NEW;
        end
        if (state_q == ucm_pkg::ST_CTRL && cycle_q == 16'd1) begin
          meta_we[slot_arg_lane] = 1'b1;
          meta_op                = ucm_pkg::META_CTRL;
        end
      end
      ucm_pkg::ST_RESET: begin
        meta_waddr = meta_addr(bank_base, cycle_q);
        meta_we    = '1;
      end
      ucm_pkg::ST_SCORE: begin
        meta_raddr = meta_addr(bank_base, cycle_q - 16'(ScoreLatency - 2));
        if (score_commit) begin
          search_we = '1;
          meta_op   = ucm_pkg::META_CHARGE;
          for (int unsigned l = 0; l < Lanes; l++) search_wdata[l] = lane_entry[l];
          if (f_accum) meta_we = scan_valid;
        end
      end
      ucm_pkg::ST_EXACT: begin
        list_idx  = fetch_idx;
        key_raddr = meta_addr(bank_base, entry_slot >> LaneBits);
      end
      ucm_pkg::ST_ACC: begin
        list_idx   = entry_q;
        meta_raddr = meta_addr(bank_base, entry_slot >> LaneBits);
        meta_waddr = meta_addr(bank_base, entry_slot >> LaneBits);
        meta_op = ucm_pkg::META_ADD;
        if (acc_digital) meta_we[entry_lane] = 1'b1;
      end
      default: ;
    endcase
  end

  // LIST / SCORE window writes: the bus when idle, SEARCH's emit pass
  // (up to Lanes entries a cycle, each to its own lane) or EXACT's scores.
  always_comb begin : c_windows
    logic [15:0] idx;
    idx = '0;
    for (int unsigned m = 0; m < Lanes; m++) begin
      list_we[m]     = 1'b0;
      score_we[m]    = 1'b0;
      list_waddr[m]  = window_row;
      score_waddr[m] = window_row;
      list_wdata[m]  = req_i.wdata;
      score_wdata[m] = '0;
    end
    if (list_bus_write) list_we[lane_of(window_idx)] = 1'b1;
    if (state_q == ucm_pkg::ST_EMIT && cycle_q != 16'd0) begin
      for (int unsigned l = 0; l < Lanes; l++) begin
        idx = take_idx_flat[l*16 +: 16];
        if (take[l]) begin
          list_we[lane_of(idx)]     = 1'b1;
          score_we[lane_of(idx)]    = 1'b1;
          list_waddr[lane_of(idx)]  = RowAw'(idx >> LaneBits);
          score_waddr[lane_of(idx)] = RowAw'(idx >> LaneBits);
          list_wdata[lane_of(idx)]  = 32'(16'((32'(scan_row) << LaneBits) + l)) << soc_regs_pkg::UCM_LIST_SLOT_LSB;
          score_wdata[lane_of(idx)] = {{(32-ScoreBits){search_rdata[l][ScoreBits-1]}},
                                       search_rdata[l][ScoreBits-1:0]};
        end
      end
    end
    if (state_q == ucm_pkg::ST_EXACT && stage2_valid_q && stage2_group_q == 8'(PlaneCycles - 1)) begin
      score_we[lane_of(stage2_entry_q)]    = 1'b1;
      score_waddr[lane_of(stage2_entry_q)] = RowAw'(stage2_entry_q >> LaneBits);
      score_wdata[lane_of(stage2_entry_q)] = exact_acc_q + exact_partial;
    end
  end

  // ------------------------------------------------------------ counters
  ucm_counters #(.Dim(Dim)) u_counters (
    .clk_i, .rst_ni, .clear_i(clear_counters), .state_i(state_q), .first_cycle_i(cycle_q == 16'd0),
    .exact_op_i(op_exact), .cell_write_i(state_q == ucm_pkg::ST_WRITE && cycle_q == 16'(WriteCommit)),
    .accumulate_i(f_accum), .valid_slots_i(bank_valid),
    .adc_issue_i(exact_issue && !f_ideal), .adc_conversions_i(conv_n), .adc_rounds_i(rounds_n),
    .acc_digital_i(acc_digital), .read_idx_i(counter_idx), .read_data_o(counter_rdata)
  );

  // ------------------------------------------------------------ sequencing
  always_comb begin : c_finish  // this is the command's last busy cycle
    finish = 1'b0;
    unique case (state_q)
      ucm_pkg::ST_WRITE:    finish = (cycle_q == 16'(WriteCommit));
      ucm_pkg::ST_CTRL,
      ucm_pkg::ST_READ:     finish = (cycle_q == 16'd1);
      ucm_pkg::ST_RESET:    finish = (cycle_q == 16'(Rows - 1));
      ucm_pkg::ST_EMIT:     finish = last_row;
      ucm_pkg::ST_VICTIM:   finish = (cycle_q == 16'(Rows + 1));
      ucm_pkg::ST_VALIDATE: finish = (cycle_q == arg_q - 16'd1) && (bad_q || 32'(entry_slot) >= Slots);
      ucm_pkg::ST_EXACT:    finish = stage2_valid_q && stage2_group_q == 8'(PlaneCycles - 1) &&
                                     stage2_entry_q == arg_q - 16'd1;
      ucm_pkg::ST_ACC:      finish = phase_q && entry_q == arg_q - 16'd1;
      default: ;
    endcase
  end

  assign err_slot     = (state_q == ucm_pkg::ST_VALIDATE) && finish;
  assign err_novictim = (state_q == ucm_pkg::ST_VICTIM) && finish && !victim_found;
  assign result_we    = (state_q == ucm_pkg::ST_EMIT || state_q == ucm_pkg::ST_VICTIM) && finish;
  assign result       = (state_q == ucm_pkg::ST_EMIT) ? 32'(emitted) :
                        victim_found ? 32'(victim_slot) : 32'(Slots);
  assign slot_read    = (state_q == ucm_pkg::ST_READ);

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_engine
    if (!rst_ni) begin
      state_q        <= ucm_pkg::ST_IDLE;
      op_q           <= '0;
      flags_q        <= '0;
      bank_q         <= '0;
      arg_q          <= '0;
      cycle_q        <= '0;
      write_term_q   <= '0;
      search_term_q  <= '0;
      qlevel_q       <= '0;
      for (int unsigned b = 0; b < Banks; b++) valid_count_q[b] <= '0;
      entry_q        <= '0;
      group_q        <= '0;
      prime_q        <= 1'b0;
      phase_q        <= 1'b0;
      bad_q          <= 1'b0;
      exact_acc_q    <= '0;
      exact_issued_q <= 1'b0;
      stage1_valid_q <= 1'b0;
      stage2_valid_q <= 1'b0;
      stage1_group_q <= '0;
      stage2_group_q <= '0;
      stage1_entry_q <= '0;
      stage2_entry_q <= '0;
      row_q          <= '0;
      exact_lane_q   <= '0;
      room_q         <= '0;
    end else begin
      if (seed_write) begin
        write_term_q  <= '0;
        search_term_q <= '0;
      end

      if (cmd_start) begin
        op_q           <= cmd_op;
        flags_q        <= cmd_flags;
        bank_q         <= cmd_bank;
        arg_q          <= cmd_arg;
        state_q        <= cmd_state;
        cycle_q        <= '0;
        entry_q        <= '0;
        group_q        <= '0;
        bad_q          <= 1'b0;
        prime_q        <= 1'b1;
        phase_q        <= 1'b0;
        room_q         <= '0;
        exact_acc_q    <= '0;
        exact_issued_q <= 1'b0;
        stage1_valid_q <= 1'b0;
        stage2_valid_q <= 1'b0;
        for (int unsigned d = 0; d < Dim; d++) qlevel_q[d*3 +: 3] <= ucm_pkg::query_level(query[d*8 +: 8], qstep);
      end

      if (busy) begin
        cycle_q <= cycle_q + 16'd1;
        if (finish) state_q <= ucm_pkg::ST_IDLE;
        unique case (state_q)
          ucm_pkg::ST_WRITE: begin
            // Cell c is mixed at cycle c and c + 1, takes its level and
            // offset at c + 2 and enters the row at c + 3; Dim + 3 commits.
            if (cycle_q >= 16'd3 && cycle_q != 16'(WriteCommit)) begin
              row_q <= {new_cell, row_q[RowW-1:6]};
            end else if (cycle_q == 16'(WriteCommit)) begin
              write_term_q <= write_term_q + ucm_pkg::DrawSerialMul;
              if (!slot_meta.valid) valid_count_q[bank_q] <= valid_count_q[bank_q] + 16'd1;
            end
          end
          ucm_pkg::ST_CTRL: begin
            if (cycle_q == 16'd1 && f_invalid && slot_meta.valid) begin
              valid_count_q[bank_q] <= valid_count_q[bank_q] - 16'd1;
            end
          end
          ucm_pkg::ST_RESET: if (finish) valid_count_q[bank_q] <= '0;
          ucm_pkg::ST_SCORE: begin
            if (score_last) begin
              cycle_q <= '0;
              state_q <= skip_radix ? ucm_pkg::ST_EMIT : ucm_pkg::ST_RADIX;
            end
          end
          ucm_pkg::ST_RADIX: begin
            if (last_row) begin
              cycle_q <= '0;
              if (radix_done) state_q <= ucm_pkg::ST_GT;
            end
          end
          ucm_pkg::ST_GT: begin
            if (last_row) begin
              cycle_q <= '0;
              state_q <= ucm_pkg::ST_EMIT;
            end
          end
          ucm_pkg::ST_EMIT: if (finish) search_term_q <= search_term_q + ucm_pkg::DrawSerialMul;
          ucm_pkg::ST_VALIDATE: begin
            if (32'(entry_slot) >= Slots) bad_q <= 1'b1;
            if (cycle_q == arg_q - 16'd1) begin
              state_q <= finish ? ucm_pkg::ST_IDLE : op_exact ? ucm_pkg::ST_EXACT : ucm_pkg::ST_ACC;
              cycle_q <= '0;
            end
          end
          ucm_pkg::ST_EXACT: begin
            exact_lane_q   <= entry_lane;
            prime_q        <= 1'b0;
            stage1_valid_q <= exact_issue;
            stage1_group_q <= group_q;
            stage1_entry_q <= entry_q;
            stage2_valid_q <= stage1_valid_q;
            stage2_group_q <= stage1_group_q;
            stage2_entry_q <= stage1_entry_q;
            if (exact_issue) begin
              if (!f_ideal) room_q <= room_n;
              if (last_group) begin
                group_q <= '0;
                entry_q <= entry_q + 16'd1;
                if (entry_q == arg_q - 16'd1) exact_issued_q <= 1'b1;
              end else begin
                group_q <= group_q + 8'd1;
              end
            end
            if (stage2_valid_q) begin
              exact_acc_q <= (stage2_group_q == 8'(PlaneCycles - 1)) ? 32'sd0 : exact_acc_q + exact_partial;
            end
          end
          ucm_pkg::ST_ACC: begin
            phase_q <= !phase_q;
            if (phase_q) entry_q <= entry_q + 16'd1;
          end
          default: ;
        endcase
      end
    end
  end

`ifndef SYNTHESIS
  // The controller's contracts with its parts, checked in simulation
  // (Verilator --assert in the co-simulations; Yosys defines SYNTHESIS).
  // SlotMetaW is typed by hand (Yosys cannot take $bits of a type).
  if ($bits(ucm_pkg::slot_meta_t) != ucm_pkg::SlotMetaW) begin : g_meta_width
    $error("ucm_pkg::SlotMetaW differs from $bits(slot_meta_t)");
  end
  // The checks start a cycle after reset (they sample no asynchronous reset).
  logic check_live_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) check_live_q <= 1'b0;
    else         check_live_q <= 1'b1;
  end
  // A command's last cycle returns the engine to idle, whatever its state did.
  a_finish_idles: assert property (@(posedge clk_i) disable iff (!check_live_q) finish |=> !busy);
  // The score pass commits only rows of the bank.
  a_commit_row: assert property (@(posedge clk_i) disable iff (!check_live_q)
    state_q == ucm_pkg::ST_SCORE && score_commit |-> commit_row < 16'(Rows));
  // EXACT and ACC_ADD start only on a LIST whose slots are all in range.
  a_list_checked: assert property (@(posedge clk_i) disable iff (!check_live_q)
    state_q == ucm_pkg::ST_EXACT || state_q == ucm_pkg::ST_ACC |-> !bad_q);
  // Without a threshold a search emits k entries, or more when protected
  // slots it must keep exceed k.
  a_search_k: assert property (@(posedge clk_i) disable iff (!check_live_q)
    state_q == ucm_pkg::ST_EMIT && finish && !f_threshold |-> emitted >= arg_q);
  // A bank never counts more valid slots than it has.
  a_valid_count: assert property (@(posedge clk_i) disable iff (!check_live_q) 32'(bank_valid) <= Slots);
  // SEARCH's emit pass writes each window lane at most once a cycle.
  function automatic logic [Lanes-1:0] emit_writers(int unsigned lane);
    for (int unsigned l = 0; l < Lanes; l++) begin
      emit_writers[l] = take[l] && 32'(lane_of(take_idx_flat[l*16 +: 16])) == lane;
    end
  endfunction
  for (genvar m = 0; m < Lanes; m++) begin : g_emit_lanes
    a_emit_once: assert property (@(posedge clk_i) disable iff (!check_live_q)
      state_q == ucm_pkg::ST_EMIT |-> $onehot0(emit_writers(m)));
  end
`endif

endmodule : ucm_block
