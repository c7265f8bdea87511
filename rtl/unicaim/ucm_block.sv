// The UniCAIM array block: Banks x Slots x Dim emulated FeFET cells with
// per-slot valid / protect / position / accumulator, driven by commands on
// the SoC bus. docs/unicaim.md gives the registers and the arithmetic; the
// golden model firmware/lib/unicaim/ucm_model.c is the same behaviour in C,
// cycle counts included.
//
// Storage is split by lane: slot s lives in lane s % Lanes, row s / Lanes,
// so a scan reads Lanes slots per clock from block RAM. Every command is a
// fixed sequence of passes (a pass reads Rows rows and needs one more cycle
// for the read latency), which makes its cycle count a formula.
module ucm_block #(
  parameter int unsigned Banks    = 20,
  parameter int unsigned Slots    = 128,
  parameter int unsigned Dim      = 8,
  parameter int unsigned CellBits = 3,   // 1 or 3
  parameter int unsigned QBits    = 8,   // query bit planes, 2..8
  parameter int unsigned AdcBits  = 10,
  parameter int unsigned AdcCount = 64,  // >= Lanes
  parameter int unsigned Lanes    = 4    // power of two dividing Slots (limits checked below)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  soc_bus_pkg::bus_req_t req_i,   // registered; addr = offset in the block
  output soc_bus_pkg::bus_rsp_t rsp_o,
  output logic                  irq_o
);

  localparam int unsigned Rows        = Slots / Lanes;
  localparam int unsigned LaneBits    = $clog2(Lanes);
  localparam int unsigned LaneW       = (Lanes > 1) ? LaneBits : 1;  // a lane index
  localparam int unsigned BankW       = (Banks > 1) ? $clog2(Banks) : 1;
  localparam int unsigned RowAw       = (Rows > 1) ? $clog2(Rows) : 1;
  localparam int unsigned MetaDepth   = Banks * Rows;
  localparam int unsigned MetaAw      = (MetaDepth > 1) ? $clog2(MetaDepth) : 1;
  localparam int unsigned ScoreBits   = $clog2(64 * Dim) + 2;
  localparam int unsigned PlaneCycles = (QBits + Lanes - 1) / Lanes;
  localparam int unsigned RowW        = Dim * 6;
  localparam int unsigned MetaW       = 50;  // {acc, pos, protect, valid}
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

  typedef enum logic [3:0] {
    ST_IDLE, ST_WRITE, ST_CTRL, ST_READ, ST_RESET, ST_SCORE, ST_RADIX, ST_GT,
    ST_EMIT, ST_VALIDATE, ST_EXACT, ST_ACC, ST_VICTIM
  } state_e;

  // ------------------------------------------------------------ registers
  state_e      state_q;
  logic [3:0]  op_q;
  logic [2:0]  flags_q;  // FLAGS bit 3 is reserved
  logic [BankW-1:0] bank_q;  // checked in range when the command starts
  logic [15:0] arg_q;
  logic [31:0] cmd_q, result_q;
  logic        done_q, irq_enable_q;
  logic [6:0]  err_q;  // {novictim, busy, count, k, slot, bank, cmd}
  logic [15:0] pos_reg_q;
  logic [31:0] acc_init_q, threshold_q, noise_cfg_q, seed_q;
  logic [12:0] cam_cfg_q;
  logic [16:0] adc_cfg_q;
  logic [31:0] slot_meta_q, slot_acc_q, slot_valid_count_q;
  // The counters, in register order (regmap.toml): busy cycles per mode,
  // then device events.
  typedef enum logic [3:0] {
    C_WRITE, C_SEARCH, C_EXACT, C_ACC, C_VICTIM, C_MISC, E_CELL_WRITE, E_CELL_SEARCH,
    E_ACC_CHARGE, E_ADC_CONV, E_ADC_ROUND, E_MIN_DETECT, E_SEARCH, E_ACC_DIGITAL
  } counter_e;
  localparam int unsigned Counters = 32'(E_ACC_DIGITAL) + 32'd1;
  logic [31:0] counter_q [Counters];
  logic [7:0]  step_q [Banks];
  logic [15:0] valid_count_q [Banks];
  logic [Dim*8-1:0] key_q, query_q;

  // Engine state.
  logic [15:0] cnt_q, j_q, out_q, forced_q, tally_q, ties_q;
  logic [7:0]  pg_q;
  logic        prime_q, phase_q, bad_q, take_all_q, found_q;
  logic [5:0]  bit_q;
  logic [ScoreBits-1:0] t_q, try_t_q;  // radix select: the bound so far, this pass's candidate
  logic                 decide_q;       // the last radix pass's count awaits its verdict
  logic signed [16:0]   want_q;
  logic signed [31:0]   cut_q, ex_acc_q;
  logic                 ex_issued_q;      // EXACT has fetched its last plane
  logic                 x1_valid_q, x2_valid_q;  // EXACT's stages hold a plane group
  logic [7:0]           x1_pg_q, x2_pg_q;
  logic [15:0]          x1_j_q, x2_j_q;
  logic [RowW-1:0]      row_q;
  logic [LaneW-1:0]     ex_lane_q;
  logic [16:0]          room_q;
  logic [31:0]          best_acc_q;
  logic [15:0]          best_pos_q, best_slot_q;

  wire busy = (state_q != ST_IDLE);
  wire [7:0] qstep      = cam_cfg_q[7:0];
  wire [4:0] alpha      = cam_cfg_q[12:8];
  wire [7:0] adc_gain   = adc_cfg_q[7:0];
  wire [3:0] adc_shift  = adc_cfg_q[11:8];
  wire [4:0] adc_bits   = ucm_pkg::adc_bits_in_use(adc_cfg_q[16:12], AdcBits);
  wire [7:0] sigma      = noise_cfg_q[7:0];
  wire [7:0] read_noise = noise_cfg_q[15:8];
  wire [15:0] stuck_rate = noise_cfg_q[31:16];
  wire f_protect   = flags_q[0];
  wire f_invalid   = flags_q[1];
  wire f_threshold = flags_q[0];
  wire f_force     = flags_q[1];
  wire f_accum     = flags_q[2];
  wire f_ideal     = flags_q[0];

  logic [MetaAw-1:0] bank_base;
  assign bank_base = MetaAw'(bank_q) * MetaAw'(Rows);

  function automatic logic [LaneW-1:0] lane_of(logic [15:0] slot);
    lane_of = LaneW'(slot & 16'(Lanes - 1));
  endfunction

  function automatic logic [MetaAw-1:0] meta_addr(logic [MetaAw-1:0] base, logic [15:0] row);
    meta_addr = base + MetaAw'(row);
  endfunction

  // Query levels for the CAM (-2..2 by QSTEP), three bits per dimension,
  // taken as a command starts: QUERY and CAM_CFG cannot change while busy.
  // A product conductance x level is then a shift and a complement, with
  // the complements' +1s counted once (qneg_q) and added after the sum.
  logic [Dim*3-1:0] qlevel_q;
  logic [15:0]      qneg_q;

  function automatic logic [15:0] negative_levels(logic [Dim*3-1:0] levels);
    negative_levels = '0;
    for (int unsigned d = 0; d < Dim; d++) negative_levels = negative_levels + 16'(levels[d*3+2]);
  endfunction

  // ------------------------------------------------------------ memories
  logic [MetaAw-1:0]  key_raddr, meta_raddr, meta_waddr, key_waddr;
  logic [Lanes-1:0]   key_we, meta_we, search_we;
  logic [RowW-1:0]    key_rdata [Lanes];
  logic [MetaW-1:0]   meta_rdata [Lanes], meta_wdata [Lanes];
  logic [RowAw-1:0]   search_raddr, search_waddr;
  logic [SearchW-1:0] search_rdata [Lanes], search_wdata [Lanes];

  // LIST and SCORE windows, also split by lane (entry i in lane i % Lanes).
  // The bus reads them only while idle, the engine only while busy.
  logic [Lanes-1:0]  list_we, sout_we;
  logic [RowAw-1:0]  list_waddr [Lanes], sout_waddr [Lanes];
  logic [31:0]       list_wdata [Lanes], sout_wdata [Lanes];
  logic [RowAw-1:0]  bus_row, list_row;
  logic [31:0]       list_rd [Lanes], sout_rd [Lanes];
  logic [15:0]       bus_idx, eng_idx;
  logic [31:0]       eng_entry;

  for (genvar l = 0; l < Lanes; l++) begin : g_lane
    sdp_ram #(.Width(RowW), .Depth(MetaDepth)) u_keys (
      .clk_i, .we_i(key_we[l]), .waddr_i(key_waddr), .wdata_i(row_q),
      .re_i(busy), .raddr_i(key_raddr), .rdata_o(key_rdata[l])
    );
    sdp_ram #(.Width(MetaW), .Depth(MetaDepth)) u_meta (
      .clk_i, .we_i(meta_we[l]), .waddr_i(meta_waddr), .wdata_i(meta_wdata[l]),
      .re_i(busy), .raddr_i(meta_raddr), .rdata_o(meta_rdata[l])
    );
    sdp_ram #(.Width(SearchW), .Depth(Rows)) u_search (
      .clk_i, .we_i(search_we[l]), .waddr_i(search_waddr), .wdata_i(search_wdata[l]),
      .re_i(busy), .raddr_i(search_raddr), .rdata_o(search_rdata[l])
    );
    lut_ram #(.Width(32), .Depth(Rows)) u_list (
      .clk_i, .we_i(list_we[l]), .waddr_i(list_waddr[l]), .wdata_i(list_wdata[l]),
      .raddr_i(list_row), .rdata_o(list_rd[l])
    );
    lut_ram #(.Width(32), .Depth(Rows)) u_score (
      .clk_i, .we_i(sout_we[l]), .waddr_i(sout_waddr[l]), .wdata_i(sout_wdata[l]),
      .raddr_i(bus_row), .rdata_o(sout_rd[l])
    );
  end

  assign bus_row   = RowAw'(bus_idx >> LaneBits);
  assign list_row  = busy ? RowAw'(eng_idx >> LaneBits) : bus_row;
  assign eng_entry = list_rd[lane_of(eng_idx)];
  wire [15:0] eng_slot = eng_entry[15:0];

  // ------------------------------------------------------------ per-lane arithmetic
  // Each datapath is cut into one-clock stages. The score pass handles a row
  // per cycle in four: the row's cells arrive and give each lane's
  // similarity (sim_q, then sim2_q); its read noise, mixed meanwhile from
  // the draw coordinates (noise_a_q, noise_b_q, noise_c_q), is added
  // (score_q); the row's metadata, read two cycles behind the cells, waits
  // in meta_q; then both commit (counts, the stored score, charge sharing). EXACT: the plane sums of the arriving cells (cur_q),
  // the converters (code_q), then the shift-add. A key write: draws, level
  // and offset, then the cell.
  localparam int unsigned ScoreLatency = 4;        // a score pass takes Rows + 4 cycles (ucm_cycles.h)
  localparam int unsigned WriteCommit  = Dim + 3;  // the key write's last cycle

  logic [RowW-1:0]             exact_row;
  logic [15:0]                 commit_row;   // the row the score pass commits
  logic signed [ScoreBits-1:0] sim_d [Lanes], sim_q [Lanes], sim2_q [Lanes];
  logic [MetaW-1:0]            meta_q [Lanes];
  logic signed [31:0]          score_d [Lanes], score_q [Lanes];
  logic signed [ScoreBits-1:0] cur_d [Lanes], cur_q [Lanes];  // a plane's sum, |.| <= 31 Dim
  logic signed [31:0]          code_d [Lanes], code_q [Lanes];
  wire                         score_commit = (cnt_q >= 16'(ScoreLatency));
  logic [31:0]                 noise_index_q [Lanes], noise_a_q [Lanes], noise_b_q [Lanes];
  logic signed [31:0]          noise_c_q [Lanes];

  assign commit_row = cnt_q - 16'(ScoreLatency);
  assign exact_row  = key_rdata[ex_lane_q];

  // Sum of Dim terms as a balanced tree: log2(Dim) adders deep, where a
  // running sum would chain Dim of them.
  function automatic logic signed [ScoreBits-1:0] tree_sum(logic [Dim*ScoreBits-1:0] terms);
    logic [Dim*ScoreBits-1:0] t;
    t = terms;
    for (int unsigned lvl = 0; (1 << lvl) < Dim; lvl++) begin
      for (int unsigned i = 0; i + (1 << lvl) < Dim; i = i + (2 << lvl)) begin
        t[i*ScoreBits +: ScoreBits] = t[i*ScoreBits +: ScoreBits] + t[(i + (1 << lvl))*ScoreBits +: ScoreBits];
      end
    end
    tree_sum = t[ScoreBits-1:0];
  endfunction

  // The arithmetic runs only in the states that use it (an idle block costs
  // the simulator almost nothing).
  always_comb begin : c_lanes
    // Sign extensions written out, so every product's and sum's width shows.
    logic signed [7:0]  conductance, shifted;
    logic signed [2:0]  level;
    logic [31:0]        b;
    logic [Dim*ScoreBits-1:0] terms;
    {conductance, shifted, level} = '0;
    b = '0;
    terms = '0;
    for (int unsigned l = 0; l < Lanes; l++) begin
      sim_d[l]   = '0;
      score_d[l] = '0;
      cur_d[l]   = '0;
      code_d[l]  = '0;
    end
    if (state_q == ST_SCORE) begin
      for (int unsigned l = 0; l < Lanes; l++) begin
        for (int unsigned d = 0; d < Dim; d++) begin
          conductance = {{2{key_rdata[l][d*6+5]}}, key_rdata[l][d*6 +: 6]};
          level       = qlevel_q[d*3 +: 3];
          shifted     = (level == 3'sd2 || level == -3'sd2) ? conductance <<< 1 : conductance;
          if (level == 3'sd0) shifted = '0;
          if (level[2]) shifted = ~shifted;  // - x = ~x + 1, the +1 in qneg_q
          terms[d*ScoreBits +: ScoreBits] = {{(ScoreBits-8){shifted[7]}}, shifted};
        end
        sim_d[l] = tree_sum(terms);
        score_d[l] = {{(32-ScoreBits){sim2_q[l][ScoreBits-1]}}, sim2_q[l]} + 32'(qneg_q) + noise_c_q[l];
      end
    end
    if (state_q == ST_EXACT) begin
      for (int unsigned l = 0; l < Lanes; l++) begin
        b = 32'(pg_q) * Lanes + l;
        for (int unsigned d = 0; d < Dim; d++) begin
          terms[d*ScoreBits +: ScoreBits] = (b < QBits && query_q[d*8 + 32'(b[2:0])]) ?
              {{(ScoreBits-6){exact_row[d*6+5]}}, exact_row[d*6 +: 6]} : '0;
        end
        cur_d[l] = tree_sum(terms);
        code_d[l] = {{(32-ScoreBits){cur_q[l][ScoreBits-1]}}, cur_q[l]};
        if (!f_ideal) code_d[l] = ucm_pkg::adc(code_d[l], adc_gain, adc_shift, 32'(adc_bits));
      end
    end
  end

  // PRNG draws. The coordinates are running sums: per-command bases (seed
  // plus serial terms, registered every cycle, so ready when a command
  // starts) and index terms stepping by Lanes (slots) or 1 (cells) times the
  // index multiplier. The score pass mixes and scales the read noise of the
  // row it is reading over three clocks, meeting the row's delayed
  // similarity; a key write mixes the variation and stuck draws of cell cnt
  // over two, then turns them into the cell's offset and stuck flag.
  logic [31:0]       search_term_q, write_term_q, noise_base_q, write_base_q, write_index_q;
  logic [31:0]       var_a_q, var_b_q, stuck_a_q, stuck_b_q;
  logic signed [31:0] offset_q;
  logic signed [2:0] level_q;
  logic [16:0]       stuck_q;  // [15:0] against the rate, [16] the level's sign
  logic [7:0]        write_step_q;
  logic signed [5:0] new_cell;
  logic [15:0]       level_idx;  // the key component whose level is taken this cycle
  assign level_idx = cnt_q - 16'd2;
  assign new_cell  = ucm_pkg::cell_value(level_q, offset_q, CellBits, stuck_rate, stuck_q);

  always_ff @(posedge clk_i) begin : s_stages
    noise_base_q <= seed_q + search_term_q + 32'd2 * ucm_pkg::DrawDomainMul;
    write_base_q <= seed_q + write_term_q;
    write_step_q <= step_q[bank_q];  // ready from a key write's second cycle
    if (state_q == ST_SCORE && cnt_q == 16'd0) qneg_q <= negative_levels(qlevel_q);  // used from cnt 3
    if (!busy) begin
      write_index_q <= '0;
      for (int unsigned l = 0; l < Lanes; l++) noise_index_q[l] <= 32'(l) * ucm_pkg::DrawIndexMul;
    end
    if (state_q == ST_SCORE) begin
      for (int unsigned l = 0; l < Lanes; l++) begin
        noise_index_q[l] <= noise_index_q[l] + 32'(Lanes) * ucm_pkg::DrawIndexMul;
        noise_a_q[l]     <= ucm_pkg::mix_a(noise_base_q + noise_index_q[l]);
        noise_b_q[l]     <= ucm_pkg::mix_b(noise_a_q[l]);
        noise_c_q[l]     <= ucm_pkg::noise(ucm_pkg::mix_out(noise_b_q[l]), read_noise);
        sim_q[l]         <= sim_d[l];
        sim2_q[l]        <= sim_q[l];
        score_q[l]       <= score_d[l];
      end
    end
    if (state_q == ST_SCORE || state_q == ST_VICTIM) begin
      for (int unsigned l = 0; l < Lanes; l++) meta_q[l] <= meta_rdata[l];
    end
    if (state_q == ST_EXACT) begin
      for (int unsigned l = 0; l < Lanes; l++) begin
        cur_q[l]  <= cur_d[l];
        code_q[l] <= code_d[l];
      end
    end
    if (state_q == ST_WRITE) begin
      write_index_q <= write_index_q + ucm_pkg::DrawIndexMul;
      var_a_q   <= ucm_pkg::mix_a(write_base_q + write_index_q);
      stuck_a_q <= ucm_pkg::mix_a(write_base_q + write_index_q + ucm_pkg::DrawDomainMul);
      var_b_q   <= ucm_pkg::mix_b(var_a_q);
      stuck_b_q <= ucm_pkg::mix_b(stuck_a_q);
      offset_q  <= ucm_pkg::noise(ucm_pkg::mix_out(var_b_q), sigma);
      stuck_q   <= 17'(ucm_pkg::mix_out(stuck_b_q));
      level_q   <= ucm_pkg::cell_level(key_q[(32'(level_idx) % Dim)*8 +: 8], write_step_q, CellBits);
    end
  end

  // ------------------------------------------------------------ engine datapath
  logic [15:0]      slot_arg_row;
  logic [LaneW-1:0] slot_arg_lane, eng_slot_lane;
  assign slot_arg_row  = arg_q >> LaneBits;
  assign slot_arg_lane = lane_of(arg_q);
  assign eng_slot_lane = lane_of(eng_slot);

  // Scan results of the current cycle (row cnt_q - 1).
  logic [15:0]        forced_n, over_thr_n, tally_n, take_n, ties_n, emit_idx;
  logic [Lanes-1:0]   take;
  logic [15:0]        take_idx [Lanes];
  logic               victim_found;
  logic [31:0]        victim_acc;
  logic [15:0]        victim_pos, victim_slot;
  logic signed [31:0] exact_partial;
  logic [16:0]        room_n;
  logic [15:0]        conv_n, rounds_n;

  wire scanning = (cnt_q != 16'd0);  // a pass's read data is valid from its second cycle

  always_comb begin : c_scan
    logic signed [31:0] s;
    logic valid, prot, forced, cand;
    logic [ScoreBits-1:0] biased;
    {valid, prot, forced, cand} = '0;
    s          = '0;
    biased     = '0;
    forced_n   = forced_q;
    over_thr_n = '0;
    tally_n    = tally_q;
    take_n     = '0;
    ties_n     = ties_q;
    take       = '0;
    victim_found = found_q;
    victim_acc   = best_acc_q;
    victim_pos   = best_pos_q;
    victim_slot  = best_slot_q;
    for (int unsigned l = 0; l < Lanes; l++) take_idx[l] = '0;
    if (busy) begin
      for (int unsigned l = 0; l < Lanes; l++) begin
        valid  = meta_q[l][0];  // the score and victim passes' registered metadata
        prot   = meta_q[l][1];
        s      = {{(32-ScoreBits){search_rdata[l][ScoreBits-1]}}, search_rdata[l][ScoreBits-1:0]};
        biased = search_rdata[l][ScoreBits-1:0] ^ (ScoreBits'(1) << (ScoreBits - 1));
        cand   = search_rdata[l][ScoreBits];
        forced = search_rdata[l][ScoreBits+1];
        unique case (state_q)
          // Score pass: candidates and the threshold count, from the slot's flags.
          ST_SCORE: begin
            if (valid && prot && f_force) forced_n = forced_n + 16'd1;
            if (valid && !(prot && f_force) && score_q[l] >= $signed(threshold_q)) over_thr_n = over_thr_n + 16'd1;
          end
          // Later passes read {forced, cand, S} back.
          ST_RADIX: if (scanning && cand && biased >= try_t_q) tally_n = tally_n + 16'd1;
          ST_GT:    if (scanning && cand && biased > t_q) tally_n = tally_n + 16'd1;
          ST_EMIT: begin
            if (forced || (cand && s > cut_q)) begin
              take[l] = 1'b1;
            end else if (cand && s == cut_q && (take_all_q || ties_n != 16'd0)) begin
              take[l] = 1'b1;
              if (!take_all_q) ties_n = ties_n - 16'd1;
            end
            take_idx[l] = out_q + take_n;
            if (take[l]) take_n = take_n + 16'd1;
          end
          // Min-detect: lowest accumulator, then oldest position, then lowest slot.
          ST_VICTIM: begin
            if (valid && !prot && (!victim_found || meta_q[l][49:18] < victim_acc ||
                (meta_q[l][49:18] == victim_acc && meta_q[l][17:2] < victim_pos))) begin
              victim_found = 1'b1;
              victim_acc   = meta_q[l][49:18];
              victim_pos   = meta_q[l][17:2];
              victim_slot  = ((cnt_q - 16'd2) << LaneBits) + 16'(l);
            end
          end
          default: ;
        endcase
      end
    end
    emit_idx = out_q + take_n;
  end

  // Exact scores: the converted planes of a group, shift-added with the
  // sign plane negative; ADC rounds open whenever the shared converters run
  // out (counted as the planes are fetched).
  wire ex_issue = (state_q == ST_EXACT) && !prime_q && !ex_issued_q;
  always_comb begin : c_exact
    logic [31:0] b;
    logic signed [31:0] w;
    b = '0;
    w = '0;
    exact_partial = '0;
    conv_n = '0;
    if (state_q == ST_EXACT) begin
      for (int unsigned l = 0; l < Lanes; l++) begin
        b = 32'(x2_pg_q) * Lanes + l;
        w = code_q[l] <<< b;
        if (b < QBits) exact_partial = (b == QBits - 1) ? exact_partial - w : exact_partial + w;
        if (32'(pg_q) * Lanes + l < QBits) conv_n = conv_n + 16'd1;
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

  // Charge sharing: acc + ((x - acc) >>> alpha), x = S biased onto 32 bits.
  function automatic logic [31:0] charge_share(logic [31:0] acc, logic [ScoreBits-1:0] s, logic [4:0] sh);
    logic [31:0] x;
    logic signed [32:0] diff;
    x = (32'(s) ^ (32'(1) << (ScoreBits - 1))) << (32 - ScoreBits);
    diff = $signed({1'b0, x}) - $signed({1'b0, acc});
    charge_share = acc + 32'(diff >>> sh);
  endfunction

  // Digital accumulation (ACC_ADD): the addend onto the entry's slot, saturating.
  logic [32:0] acc_sum;
  assign acc_sum = 33'(meta_rdata[eng_slot_lane][49:18]) + 33'(eng_entry[31:16]);

  // ------------------------------------------------------------ memory ports
  wire last_row   = (cnt_q == 16'(Rows));  // the drain cycle of a pass
  wire score_last = (cnt_q == 16'(Rows + ScoreLatency - 1));
  wire [15:0] scan_row = cnt_q - 16'd1;  // the row whose data a one-stage pass sees
  wire [15:0] fetch_idx = prime_q ? 16'd0 : (pg_q == 8'(PlaneCycles - 1)) ? j_q + 16'd1 : j_q;

  always_comb begin : c_ports
    key_raddr    = meta_addr(bank_base, cnt_q);
    meta_raddr   = meta_addr(bank_base, cnt_q);
    meta_waddr   = meta_addr(bank_base, commit_row);
    key_waddr    = meta_addr(bank_base, slot_arg_row);
    search_raddr = RowAw'(cnt_q);
    search_waddr = RowAw'(commit_row);
    eng_idx      = cnt_q;
    key_we       = '0;
    meta_we      = '0;
    search_we    = '0;
    for (int unsigned l = 0; l < Lanes; l++) begin
      meta_wdata[l]   = meta_rdata[l];
      search_wdata[l] = '0;
    end
    unique case (state_q)
      ST_WRITE, ST_CTRL, ST_READ: begin
        meta_raddr = meta_addr(bank_base, slot_arg_row);
        meta_waddr = meta_addr(bank_base, slot_arg_row);
        if (state_q == ST_WRITE && cnt_q == 16'(WriteCommit)) begin
          key_we[slot_arg_lane]     = 1'b1;
          meta_we[slot_arg_lane]    = 1'b1;
          meta_wdata[slot_arg_lane] = {acc_init_q, pos_reg_q, f_protect, 1'b1};
        end
        if (state_q == ST_CTRL && cnt_q == 16'd1) begin
          meta_we[slot_arg_lane] = 1'b1;
          meta_wdata[slot_arg_lane][1:0] = f_invalid ? 2'b00 :
                                           {f_protect, meta_rdata[slot_arg_lane][0]};
        end
      end
      ST_RESET: begin
        meta_waddr = meta_addr(bank_base, cnt_q);
        meta_we    = '1;
        for (int unsigned l = 0; l < Lanes; l++) meta_wdata[l] = '0;
      end
      ST_SCORE: begin
        meta_raddr = meta_addr(bank_base, cnt_q - 16'd2);
        if (score_commit) begin
          search_we = '1;
          for (int unsigned l = 0; l < Lanes; l++) begin
            search_wdata[l] = {meta_q[l][0] && meta_q[l][1] && f_force,
                               meta_q[l][0] && !(meta_q[l][1] && f_force),
                               score_q[l][ScoreBits-1:0]};
          end
          if (f_accum) begin
            for (int unsigned l = 0; l < Lanes; l++) begin
              meta_we[l]    = meta_q[l][0];
              meta_wdata[l] = {charge_share(meta_q[l][49:18], score_q[l][ScoreBits-1:0], alpha), meta_q[l][17:0]};
            end
          end
        end
      end
      ST_VALIDATE: ;
      ST_EXACT: begin
        eng_idx   = fetch_idx;
        key_raddr = meta_addr(bank_base, eng_slot >> LaneBits);
      end
      ST_ACC: begin
        eng_idx    = j_q;
        meta_raddr = meta_addr(bank_base, eng_slot >> LaneBits);
        meta_waddr = meta_addr(bank_base, eng_slot >> LaneBits);
        if (phase_q && meta_rdata[eng_slot_lane][0]) begin
          meta_we[eng_slot_lane] = 1'b1;
          meta_wdata[eng_slot_lane][49:18] = acc_sum[32] ? 32'hFFFF_FFFF : acc_sum[31:0];
        end
      end
      default: ;
    endcase
  end

  // LIST / SCORE window writes: the bus when idle, SEARCH's emit pass
  // (up to Lanes entries a cycle, each to its own lane) or EXACT's scores.
  logic bus_wr, bus_rd;
  logic [15:0] off;
  assign off    = req_i.addr[15:0];
  assign bus_wr = req_i.req && req_i.we;
  assign bus_rd = req_i.req && !req_i.we;
  assign bus_idx = {4'b0, off[13:2]};

  wire in_step  = (off[15:10] == 6'b000001) && (off[9:2] < 8'(Banks));
  wire in_key   = (off[15:10] == 6'b000010) && (32'(off[9:2]) * 4 < Dim);
  wire in_query = (off[15:10] == 6'b000011) && (32'(off[9:2]) * 4 < Dim);
  wire in_list  = (off[15:14] == 2'b01) && (32'(off[13:2]) < Slots);
  wire in_score = (off[15:14] == 2'b10) && (32'(off[13:2]) < Slots);
  wire in_reg   = (off[15:8] == 8'h00);

  always_comb begin : c_windows
    for (int unsigned m = 0; m < Lanes; m++) begin
      list_we[m]    = 1'b0;
      sout_we[m]    = 1'b0;
      list_waddr[m] = bus_row;
      sout_waddr[m] = bus_row;
      list_wdata[m] = req_i.wdata;
      sout_wdata[m] = '0;
    end
    if (!busy && bus_wr && in_list) list_we[lane_of(bus_idx)] = 1'b1;
    if (state_q == ST_EMIT && cnt_q != 16'd0) begin
      for (int unsigned l = 0; l < Lanes; l++) begin
        if (take[l]) begin
          list_we[lane_of(take_idx[l])]    = 1'b1;
          sout_we[lane_of(take_idx[l])]    = 1'b1;
          list_waddr[lane_of(take_idx[l])] = RowAw'(take_idx[l] >> LaneBits);
          sout_waddr[lane_of(take_idx[l])] = RowAw'(take_idx[l] >> LaneBits);
          list_wdata[lane_of(take_idx[l])] = ({16'b0, scan_row} << LaneBits) + 32'(l);
          sout_wdata[lane_of(take_idx[l])] = {{(32-ScoreBits){search_rdata[l][ScoreBits-1]}},
                                              search_rdata[l][ScoreBits-1:0]};
        end
      end
    end
    if (state_q == ST_EXACT && x2_valid_q && x2_pg_q == 8'(PlaneCycles - 1)) begin
      sout_we[lane_of(x2_j_q)]    = 1'b1;
      sout_waddr[lane_of(x2_j_q)] = RowAw'(x2_j_q >> LaneBits);
      sout_wdata[lane_of(x2_j_q)] = ex_acc_q + exact_partial;
    end
  end

  // ------------------------------------------------------------ bus
  localparam logic [11:0] CounterBase = soc_regs_pkg::UCM_CYC_WRITE_OFFSET;
  wire [11:0] reg_off = {4'b0, off[7:0]};
  wire        in_counter = (reg_off >= CounterBase) && (reg_off < CounterBase + 12'(4 * Counters));
  wire [3:0]  counter_idx = 4'((reg_off - CounterBase) >> 2);
  wire        wr_while_busy = busy && bus_wr && (in_step || in_key || in_query || in_list ||
              (in_reg && reg_off != soc_regs_pkg::UCM_STATUS_OFFSET &&
                         reg_off != soc_regs_pkg::UCM_IRQ_ENABLE_OFFSET));
  wire        rd_while_busy = busy && bus_rd && (in_list || in_score);

  logic reg_writable, reg_readable;
  always_comb begin
    reg_writable = 1'b0;
    reg_readable = 1'b1;
    unique case (reg_off)
      soc_regs_pkg::UCM_CMD_OFFSET, soc_regs_pkg::UCM_STATUS_OFFSET,
      soc_regs_pkg::UCM_IRQ_ENABLE_OFFSET, soc_regs_pkg::UCM_POS_OFFSET,
      soc_regs_pkg::UCM_ACC_INIT_OFFSET, soc_regs_pkg::UCM_THRESHOLD_OFFSET,
      soc_regs_pkg::UCM_CAM_CFG_OFFSET, soc_regs_pkg::UCM_ADC_CFG_OFFSET,
      soc_regs_pkg::UCM_NOISE_CFG_OFFSET, soc_regs_pkg::UCM_SEED_OFFSET: reg_writable = 1'b1;
      soc_regs_pkg::UCM_CTRL_OFFSET: begin
        reg_writable = 1'b1;
        reg_readable = 1'b0;
      end
      soc_regs_pkg::UCM_GEOM_OFFSET, soc_regs_pkg::UCM_SHAPE_OFFSET, soc_regs_pkg::UCM_CONV_OFFSET,
      soc_regs_pkg::UCM_RESULT_OFFSET, soc_regs_pkg::UCM_SLOT_META_OFFSET,
      soc_regs_pkg::UCM_SLOT_ACC_OFFSET, soc_regs_pkg::UCM_VALID_COUNT_OFFSET: ;
      default: reg_readable = in_counter;
    endcase
  end

  always_comb begin
    rsp_o = '0;
    if (req_i.req) begin
      if (in_reg) begin
        rsp_o.err = req_i.we ? !reg_writable : !reg_readable;
        if (in_counter) rsp_o.rdata = counter_q[counter_idx];
        unique case (reg_off)
          soc_regs_pkg::UCM_GEOM_OFFSET:  rsp_o.rdata = GeomWord;
          soc_regs_pkg::UCM_SHAPE_OFFSET: rsp_o.rdata = ShapeWord;
          soc_regs_pkg::UCM_CONV_OFFSET:  rsp_o.rdata = ConvWord;
          soc_regs_pkg::UCM_CMD_OFFSET:         rsp_o.rdata = cmd_q;
          soc_regs_pkg::UCM_STATUS_OFFSET: begin
            rsp_o.rdata[soc_regs_pkg::UCM_STATUS_BUSY_LSB]        = busy;
            rsp_o.rdata[soc_regs_pkg::UCM_STATUS_DONE_LSB]        = done_q;
            rsp_o.rdata[soc_regs_pkg::UCM_STATUS_ERR_CMD_LSB +: 7] = err_q;  // cmd .. novictim, in order
          end
          soc_regs_pkg::UCM_RESULT_OFFSET:      rsp_o.rdata = result_q;
          soc_regs_pkg::UCM_IRQ_ENABLE_OFFSET:  rsp_o.rdata = {31'b0, irq_enable_q};
          soc_regs_pkg::UCM_POS_OFFSET:         rsp_o.rdata = {16'b0, pos_reg_q};
          soc_regs_pkg::UCM_ACC_INIT_OFFSET:    rsp_o.rdata = acc_init_q;
          soc_regs_pkg::UCM_THRESHOLD_OFFSET:   rsp_o.rdata = threshold_q;
          soc_regs_pkg::UCM_CAM_CFG_OFFSET:     rsp_o.rdata = {19'b0, cam_cfg_q};
          soc_regs_pkg::UCM_ADC_CFG_OFFSET:     rsp_o.rdata = {15'b0, adc_cfg_q};
          soc_regs_pkg::UCM_NOISE_CFG_OFFSET:   rsp_o.rdata = noise_cfg_q;
          soc_regs_pkg::UCM_SEED_OFFSET:        rsp_o.rdata = seed_q;
          soc_regs_pkg::UCM_SLOT_META_OFFSET:   rsp_o.rdata = slot_meta_q;
          soc_regs_pkg::UCM_SLOT_ACC_OFFSET:    rsp_o.rdata = slot_acc_q;
          soc_regs_pkg::UCM_VALID_COUNT_OFFSET: rsp_o.rdata = slot_valid_count_q;
          default: ;
        endcase
      end else if (in_step) begin
        rsp_o.rdata = {24'b0, step_q[BankW'(off[9:2])]};
      end else if (in_key) begin
        rsp_o.rdata = key_q[32'(off[9:2]) * 32 +: 32];
      end else if (in_query) begin
        rsp_o.rdata = query_q[32'(off[9:2]) * 32 +: 32];
      end else if (in_list) begin
        rsp_o.rdata = busy ? 32'b0 : list_rd[lane_of(bus_idx)];
      end else if (in_score) begin
        rsp_o.err   = req_i.we;
        rsp_o.rdata = busy ? 32'b0 : sout_rd[lane_of(bus_idx)];
      end else begin
        rsp_o.err = 1'b1;
      end
    end
  end

  assign irq_o = done_q && irq_enable_q;

  // ------------------------------------------------------------ command decode
  logic [3:0]  cmd_op;
  logic [7:0]  cmd_bank;
  logic [15:0] cmd_arg;
  logic [6:0]  cmd_err;
  state_e      cmd_state;
  assign cmd_op   = req_i.wdata[3:0];
  assign cmd_bank = req_i.wdata[15:8];
  assign cmd_arg  = req_i.wdata[31:16];

  always_comb begin
    cmd_err   = '0;
    cmd_state = ST_IDLE;
    unique case (cmd_op)
      4'(soc_regs_pkg::UCM_OP_WRITE_KEY):   cmd_state = ST_WRITE;
      4'(soc_regs_pkg::UCM_OP_SLOT_CTRL):   cmd_state = ST_CTRL;
      4'(soc_regs_pkg::UCM_OP_SEARCH):      cmd_state = ST_SCORE;
      4'(soc_regs_pkg::UCM_OP_EXACT),
      4'(soc_regs_pkg::UCM_OP_ACC_ADD):     cmd_state = ST_VALIDATE;
      4'(soc_regs_pkg::UCM_OP_FIND_VICTIM): cmd_state = ST_VICTIM;
      4'(soc_regs_pkg::UCM_OP_RESET_BANK):  cmd_state = ST_RESET;
      4'(soc_regs_pkg::UCM_OP_READ_SLOT):   cmd_state = ST_READ;
      default:                              cmd_err[0] = 1'b1;
    endcase
    if (cmd_err[0]) begin
      cmd_state = ST_IDLE;
    end else if (32'(cmd_bank) >= Banks) begin
      cmd_err[1] = 1'b1;
    end else if ((cmd_state == ST_WRITE || cmd_state == ST_CTRL || cmd_state == ST_READ) &&
                 32'(cmd_arg) >= Slots) begin
      cmd_err[2] = 1'b1;
    end else if (cmd_state == ST_SCORE &&
                 (cmd_arg == 16'd0 || cmd_arg > valid_count_q[BankW'(cmd_bank)])) begin
      cmd_err[3] = 1'b1;
    end else if (cmd_state == ST_VALIDATE && (cmd_arg == 16'd0 || 32'(cmd_arg) > Slots)) begin
      cmd_err[4] = 1'b1;
    end
    if (cmd_err != '0) cmd_state = ST_IDLE;
  end

  wire cmd_start = !busy && bus_wr && in_reg && reg_off == soc_regs_pkg::UCM_CMD_OFFSET;

  // ------------------------------------------------------------ counters
  // What each cycle adds to each counter: its busy cycles by mode, and the
  // device events of a command (counted in its first cycle or as it goes).
  logic [31:0] counter_add [Counters];
  logic        clear_counters;
  assign clear_counters = !busy && bus_wr && in_reg && reg_off == soc_regs_pkg::UCM_CTRL_OFFSET && req_i.wdata[0];

  always_comb begin : c_counters
    for (int unsigned i = 0; i < Counters; i++) counter_add[i] = '0;
    unique case (state_q)
      ST_WRITE:    counter_add[C_WRITE] = 32'd1;
      ST_SCORE, ST_RADIX, ST_GT, ST_EMIT: counter_add[C_SEARCH] = 32'd1;
      ST_VALIDATE: counter_add[(op_q == 4'(soc_regs_pkg::UCM_OP_EXACT)) ? C_EXACT : C_ACC] = 32'd1;
      ST_EXACT:    counter_add[C_EXACT] = 32'd1;
      ST_ACC:      counter_add[C_ACC] = 32'd1;
      ST_VICTIM:   counter_add[C_VICTIM] = 32'd1;
      ST_CTRL, ST_READ, ST_RESET: counter_add[C_MISC] = 32'd1;
      default: ;
    endcase
    if (state_q == ST_WRITE && cnt_q == 16'(WriteCommit)) counter_add[E_CELL_WRITE] = 32'(Dim);
    if (ex_issue && !f_ideal) begin
      counter_add[E_ADC_CONV]  = 32'(conv_n);
      counter_add[E_ADC_ROUND] = 32'(rounds_n);
    end
    if (state_q == ST_ACC && phase_q && meta_rdata[eng_slot_lane][0]) counter_add[E_ACC_DIGITAL] = 32'd1;
    // A command's own events in its first cycle.
    if (state_q == ST_SCORE && cnt_q == 16'd0) begin
      counter_add[E_SEARCH]      = 32'd1;
      counter_add[E_CELL_SEARCH] = 32'(valid_count_q[bank_q]) * Dim;
      if (f_accum) counter_add[E_ACC_CHARGE] = 32'(valid_count_q[bank_q]);
    end
    if (state_q == ST_VICTIM && cnt_q == 16'd0) counter_add[E_MIN_DETECT] = 32'd1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_counters
    if (!rst_ni) begin
      for (int unsigned i = 0; i < Counters; i++) counter_q[i] <= '0;
    end else if (clear_counters) begin
      for (int unsigned i = 0; i < Counters; i++) counter_q[i] <= '0;
    end else if (busy) begin
      for (int unsigned i = 0; i < Counters; i++) counter_q[i] <= counter_q[i] + counter_add[i];
    end
  end

  // ------------------------------------------------------------ sequencing

  logic finish;  // this is the command's last busy cycle
  always_comb begin
    finish = 1'b0;
    unique case (state_q)
      ST_WRITE:    finish = (cnt_q == 16'(WriteCommit));
      ST_CTRL,
      ST_READ:     finish = (cnt_q == 16'd1);
      ST_RESET:    finish = (cnt_q == 16'(Rows - 1));
      ST_EMIT:     finish = last_row;
      ST_VICTIM:   finish = (cnt_q == 16'(Rows + 1));
      ST_VALIDATE: finish = (cnt_q == arg_q - 16'd1) && (bad_q || 32'(eng_slot) >= Slots);
      ST_EXACT:    finish = x2_valid_q && x2_pg_q == 8'(PlaneCycles - 1) && x2_j_q == arg_q - 16'd1;
      ST_ACC:      finish = phase_q && j_q == arg_q - 16'd1;
      default: ;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q  <= ST_IDLE;
      op_q     <= '0;
      flags_q  <= '0;
      bank_q   <= '0;
      arg_q    <= '0;
      cmd_q    <= '0;
      result_q <= '0;
      done_q   <= 1'b0;
      err_q    <= '0;
      irq_enable_q <= 1'b0;
      pos_reg_q    <= '0;
      acc_init_q   <= '0;
      threshold_q  <= '0;
      cam_cfg_q    <= 13'd1;
      adc_cfg_q    <= 17'd1;
      noise_cfg_q  <= '0;
      seed_q       <= '0;
      slot_meta_q  <= '0;
      slot_acc_q   <= '0;
      slot_valid_count_q <= '0;
      write_term_q  <= '0;
      search_term_q <= '0;
      qlevel_q      <= '0;
      for (int unsigned b = 0; b < Banks; b++) begin
        step_q[b]        <= '0;
        valid_count_q[b] <= '0;
      end
      key_q   <= '0;
      query_q <= '0;
      cnt_q   <= '0;
      j_q     <= '0;
      pg_q    <= '0;
      out_q   <= '0;
      forced_q <= '0;
      tally_q <= '0;
      ties_q  <= '0;
      prime_q <= 1'b0;
      phase_q <= 1'b0;
      bad_q   <= 1'b0;
      take_all_q <= 1'b0;
      found_q <= 1'b0;
      bit_q   <= '0;
      try_t_q <= '0;
      decide_q <= 1'b0;
      t_q     <= '0;
      want_q  <= '0;
      cut_q   <= '0;
      ex_acc_q <= '0;
      ex_issued_q <= 1'b0;
      x1_valid_q  <= 1'b0;
      x2_valid_q  <= 1'b0;
      x1_pg_q     <= '0;
      x2_pg_q     <= '0;
      x1_j_q      <= '0;
      x2_j_q      <= '0;
      row_q   <= '0;
      ex_lane_q <= '0;
      room_q  <= '0;
      best_acc_q  <= '0;
      best_pos_q  <= '0;
      best_slot_q <= '0;
    end else begin
      // Bus writes.
      if (wr_while_busy || rd_while_busy) err_q[5] <= 1'b1;
      if (bus_wr && !busy) begin
        for (int unsigned i = 0; i < 4; i++) begin
          if (req_i.be[i] && in_key)   key_q[(32'(off[9:2]) * 4 + i) * 8 +: 8]   <= req_i.wdata[8*i +: 8];
          if (req_i.be[i] && in_query) query_q[(32'(off[9:2]) * 4 + i) * 8 +: 8] <= req_i.wdata[8*i +: 8];
        end
        if (in_step && req_i.be[0]) step_q[BankW'(off[9:2])] <= req_i.wdata[7:0];
        if (in_reg) begin
          unique case (reg_off)
            soc_regs_pkg::UCM_POS_OFFSET:       pos_reg_q   <= req_i.wdata[15:0];
            soc_regs_pkg::UCM_ACC_INIT_OFFSET:  acc_init_q  <= req_i.wdata;
            soc_regs_pkg::UCM_THRESHOLD_OFFSET: threshold_q <= req_i.wdata;
            soc_regs_pkg::UCM_CAM_CFG_OFFSET:   cam_cfg_q   <= req_i.wdata[12:0];
            soc_regs_pkg::UCM_ADC_CFG_OFFSET:   adc_cfg_q   <= req_i.wdata[16:0];
            soc_regs_pkg::UCM_NOISE_CFG_OFFSET: noise_cfg_q <= req_i.wdata;
            soc_regs_pkg::UCM_SEED_OFFSET: begin
              seed_q          <= req_i.wdata;
              write_term_q  <= '0;
              search_term_q <= '0;
            end
            default: ;
          endcase
        end
      end
      if (bus_wr && in_reg && reg_off == soc_regs_pkg::UCM_IRQ_ENABLE_OFFSET) irq_enable_q <= req_i.wdata[0];
      if (bus_wr && in_reg && reg_off == soc_regs_pkg::UCM_STATUS_OFFSET) begin
        if (req_i.wdata[1]) done_q <= 1'b0;
        err_q <= err_q & ~req_i.wdata[14:8];
      end

      // Command start.
      if (cmd_start) begin
        cmd_q   <= req_i.wdata;
        op_q    <= cmd_op;
        flags_q <= req_i.wdata[6:4];
        bank_q  <= BankW'(cmd_bank);
        arg_q   <= cmd_arg;
        state_q <= cmd_state;
        done_q  <= (cmd_err != '0);
        err_q   <= {1'b0, err_q[5], 5'b0} | {2'b0, cmd_err[4:0]};
        cnt_q   <= '0;
        j_q     <= '0;
        pg_q    <= '0;
        out_q   <= '0;
        forced_q <= '0;
        tally_q <= '0;
        bad_q   <= 1'b0;
        prime_q <= 1'b1;
        phase_q <= 1'b0;
        found_q <= 1'b0;
        room_q  <= '0;
        ex_acc_q <= '0;
        ex_issued_q <= 1'b0;
        x1_valid_q  <= 1'b0;
        x2_valid_q  <= 1'b0;
        for (int unsigned d = 0; d < Dim; d++) qlevel_q[d*3 +: 3] <= ucm_pkg::query_level(query_q[d*8 +: 8], qstep);
      end

      if (busy) begin
        cnt_q <= cnt_q + 16'd1;
        if (finish) begin
          state_q <= ST_IDLE;
          done_q  <= 1'b1;
        end
        unique case (state_q)
          ST_WRITE: begin
            // Cell c is mixed at cnt c and c + 1, takes its level and offset
            // at c + 2 and enters the row at c + 3; Dim + 3 commits.
            if (cnt_q >= 16'd3 && cnt_q != 16'(WriteCommit)) begin
              row_q <= {new_cell, row_q[RowW-1:6]};
            end else if (cnt_q == 16'(WriteCommit)) begin
              write_term_q <= write_term_q + ucm_pkg::DrawSerialMul;
              if (!meta_rdata[slot_arg_lane][0]) valid_count_q[bank_q] <= valid_count_q[bank_q] + 16'd1;
            end
          end
          ST_CTRL: begin
            if (cnt_q == 16'd1 && f_invalid && meta_rdata[slot_arg_lane][0]) begin
              valid_count_q[bank_q] <= valid_count_q[bank_q] - 16'd1;
            end
          end
          ST_READ: begin
            slot_meta_q <= {14'b0, meta_rdata[slot_arg_lane][1:0], meta_rdata[slot_arg_lane][17:2]};
            slot_acc_q  <= meta_rdata[slot_arg_lane][49:18];
            slot_valid_count_q <= 32'(valid_count_q[bank_q]);
          end
          ST_RESET: begin
            if (finish) valid_count_q[bank_q] <= '0;
          end
          ST_SCORE: begin
            if (score_commit) begin
              forced_q <= forced_n;
              tally_q  <= tally_q + over_thr_n;
            end
            if (score_last) begin
              logic signed [16:0] want;
              want = $signed({1'b0, arg_q}) - $signed({1'b0, forced_n});
              want_q  <= want;
              cnt_q   <= '0;
              tally_q <= '0;
              t_q     <= '0;
              bit_q   <= 6'(ScoreBits - 1);
              try_t_q <= ScoreBits'(1) << (ScoreBits - 1);
              take_all_q <= 1'b0;
              ties_q  <= '0;
              if (want <= 0) begin
                cut_q   <= 32'sh7FFF_FFFF;
                state_q <= ST_EMIT;
              end else if (f_threshold && $signed({1'b0, tally_q + over_thr_n}) <= want) begin
                cut_q      <= threshold_q;
                take_all_q <= 1'b1;
                state_q    <= ST_EMIT;
              end else begin
                state_q <= ST_RADIX;
              end
            end
          end
          ST_RADIX: begin
            tally_q <= tally_n;
            if (last_row) begin
              cnt_q    <= '0;
              decide_q <= 1'b1;
              if (bit_q == 6'd0) state_q <= ST_GT;
              else bit_q <= bit_q - 6'd1;
            end
          end
          ST_GT: begin
            tally_q <= tally_n;
            if (last_row) begin
              cnt_q   <= '0;
              ties_q  <= 16'(want_q) - tally_n;
              cut_q   <= 32'(t_q) - (32'sd1 <<< (ScoreBits - 1));
              state_q <= ST_EMIT;
            end
          end
          ST_EMIT: begin
            if (cnt_q != 16'd0) begin
              out_q  <= emit_idx;
              ties_q <= ties_n;
            end
            if (finish) begin
              result_q <= 32'(emit_idx);
              search_term_q <= search_term_q + ucm_pkg::DrawSerialMul;
            end
          end
          ST_VALIDATE: begin
            if (32'(eng_slot) >= Slots) bad_q <= 1'b1;
            if (finish) err_q[2] <= 1'b1;
            if (cnt_q == arg_q - 16'd1) begin
              state_q <= finish ? ST_IDLE : (op_q == 4'(soc_regs_pkg::UCM_OP_EXACT)) ? ST_EXACT : ST_ACC;
              cnt_q   <= '0;
            end
          end
          ST_EXACT: begin
            ex_lane_q  <= eng_slot_lane;
            prime_q    <= 1'b0;
            x1_valid_q <= ex_issue;
            x1_pg_q    <= pg_q;
            x1_j_q     <= j_q;
            x2_valid_q <= x1_valid_q;
            x2_pg_q    <= x1_pg_q;
            x2_j_q     <= x1_j_q;
            if (ex_issue) begin
              if (!f_ideal) room_q <= room_n;
              if (pg_q == 8'(PlaneCycles - 1)) begin
                pg_q <= '0;
                j_q  <= j_q + 16'd1;
                if (j_q == arg_q - 16'd1) ex_issued_q <= 1'b1;
              end else begin
                pg_q <= pg_q + 8'd1;
              end
            end
            if (x2_valid_q) ex_acc_q <= (x2_pg_q == 8'(PlaneCycles - 1)) ? 32'sd0 : ex_acc_q + exact_partial;
          end
          ST_ACC: begin
            phase_q <= !phase_q;
            if (phase_q) j_q <= j_q + 16'd1;
          end
          ST_VICTIM: begin
            if (cnt_q >= 16'd2) begin
              found_q     <= victim_found;
              best_acc_q  <= victim_acc;
              best_pos_q  <= victim_pos;
              best_slot_q <= victim_slot;
            end
            if (finish) begin
              result_q <= victim_found ? 32'(victim_slot) : 32'(Slots);
              if (!victim_found) err_q[6] <= 1'b1;
            end
          end
          default: ;
        endcase
        // A radix pass's verdict, in the next pass's first cycle (which reads
        // but counts nothing): keep the candidate bound if enough passed it.
        if (decide_q) begin
          decide_q <= 1'b0;
          tally_q  <= '0;
          if ($signed({1'b0, tally_q}) >= want_q) begin
            t_q     <= try_t_q;
            try_t_q <= try_t_q | (ScoreBits'(1) << bit_q);
          end else begin
            try_t_q <= t_q | (ScoreBits'(1) << bit_q);
          end
        end
      end
    end
  end

endmodule : ucm_block
