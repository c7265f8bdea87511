// One lane of the array: the slots s with s % Lanes == Lane, one per row of
// each bank. It holds their key cells, metadata and last search entries in
// block RAM, its share of the LIST and SCORE windows, and the lane's
// arithmetic: the score pipeline of a search and one bit-plane group of an
// exact score. The controller (ucm_block) drives every address and enable.
//
// The score pass handles a row per cycle in seven stages: the row's cells
// arrive and give the similarity (sim_q, then sim2_q); its read noise, mixed
// meanwhile from the draw coordinates (noise_a_q .. noise_c_q), is added
// (score_q); the sense line's decay (decay_q), its exponential (exp_q) and
// sampled voltage (volt_q) follow while the score waits (score1_q, score2_q,
// score_o); the row's metadata, read five cycles behind the cells, waits in
// meta_q, and the row's search entry and charge-shared metadata are ready
// to commit. EXACT: the plane sum of the arriving cells (plane_sum_q), then
// the converter (code_o).
module ucm_lane #(
  parameter int unsigned Banks,
  parameter int unsigned Slots,
  parameter int unsigned Dim,
  parameter int unsigned QBits,
  parameter int unsigned Lanes,
  parameter int unsigned Lane,
  localparam int unsigned Rows      = Slots / Lanes,
  localparam int unsigned RowAw     = ucm_pkg::index_bits(Rows),
  localparam int unsigned MetaAw    = ucm_pkg::index_bits(Banks * Rows),
  localparam int unsigned ScoreBits = ucm_pkg::score_bits(Dim),
  localparam int unsigned RowW      = Dim * 6,
  localparam int unsigned SearchW   = ScoreBits + 2
) (
  input  logic                   clk_i,
  input  ucm_pkg::state_e        state_i,
  input  logic                   mem_re_i,  // block RAM reads (while busy)
  // Key cells: a row of Dim 6-bit conductances per slot.
  input  logic                   key_we_i,
  input  logic [MetaAw-1:0]      key_waddr_i,
  input  logic [RowW-1:0]        key_wdata_i,
  input  logic [MetaAw-1:0]      key_raddr_i,
  output logic [RowW-1:0]        key_rdata_o,
  // Slot metadata.
  input  logic                   meta_we_i,
  input  logic [MetaAw-1:0]      meta_waddr_i,
  input  ucm_pkg::meta_op_e      meta_op_i,    // what the write makes of the slot's metadata
  input  logic [31:0]            new_acc_i,    // META_NEW
  input  logic [15:0]            new_pos_i,
  input  logic                   protect_i,    // META_NEW, META_CTRL
  input  logic                   invalidate_i, // META_CTRL
  input  logic [31:0]            added_acc_i,  // META_ADD: the listed slot's acc plus its addend
  input  logic [MetaAw-1:0]      meta_raddr_i,
  output ucm_pkg::slot_meta_t    meta_rdata_o,
  // The search's entries {forced, cand, S}, one per row of the searched bank.
  input  logic                   search_we_i,
  input  logic [RowAw-1:0]       search_waddr_i,
  input  logic [SearchW-1:0]     search_wdata_i,
  input  logic [RowAw-1:0]       search_raddr_i,
  output logic [SearchW-1:0]     search_rdata_o,
  // This lane's LIST and SCORE window entries (entry i in lane i % Lanes).
  input  logic                   list_we_i,
  input  logic [RowAw-1:0]       list_waddr_i,
  input  logic [31:0]            list_wdata_i,
  input  logic [RowAw-1:0]       list_raddr_i,
  output logic [31:0]            list_rdata_o,
  input  logic                   score_we_i,
  input  logic [RowAw-1:0]       score_waddr_i,
  input  logic [31:0]            score_wdata_i,
  input  logic [RowAw-1:0]       score_raddr_i,
  output logic [31:0]            score_rdata_o,
  // Score pass: the query's CAM levels, their complements' +1s, the draw base.
  input  logic [Dim*3-1:0]       qlevel_i,
  input  logic [15:0]            qneg_i,
  input  logic [31:0]            noise_base_i,
  input  logic [7:0]             read_noise_i,
  input  logic                   force_protected_i,
  input  logic [4:0]             alpha_i,   // charge-sharing shift (linear_i)
  input  logic                   linear_i,  // the linear update instead of the sense line
  input  logic [ScoreBits-1:0]   drive_i,   // 31 x sum |query level|
  input  logic [ucm_pkg::RateW-1:0]   sense_rate_i,
  input  logic [ucm_pkg::WeightW-1:0] share_weight_i,
  input  logic [11:0]            vpre_i,
  output logic signed [31:0]     score_o,
  output logic [SearchW-1:0]     entry_o,   // the scored row's {forced, cand, S}
  // The scored or min-detected row's slot.
  output logic                   valid_o,
  output logic                   protect_o,
  output logic [31:0]            acc_o,
  output logic [15:0]            pos_o,
  // EXACT: bit plane group * Lanes + Lane of the selected slot's row.
  input  logic [RowW-1:0]        exact_row_i,
  input  logic [7:0]             plane_group_i,
  input  logic [Dim*8-1:0]       query_i,
  input  logic                   ideal_i,   // no converter
  input  logic [7:0]             adc_gain_i,
  input  logic [3:0]             adc_shift_i,
  input  logic [4:0]             adc_bits_i,
  output logic signed [31:0]     code_o
);

  sdp_ram #(.Width(RowW), .Depth(Banks * Rows)) u_keys (
    .clk_i, .we_i(key_we_i), .waddr_i(key_waddr_i), .wdata_i(key_wdata_i),
    .re_i(mem_re_i), .raddr_i(key_raddr_i), .rdata_o(key_rdata_o)
  );
  sdp_ram #(.Width(ucm_pkg::SlotMetaW), .Depth(Banks * Rows)) u_meta (
    .clk_i, .we_i(meta_we_i), .waddr_i(meta_waddr_i), .wdata_i(meta_wdata),
    .re_i(mem_re_i), .raddr_i(meta_raddr_i), .rdata_o(meta_rdata_o)
  );
  sdp_ram #(.Width(SearchW), .Depth(Rows)) u_search (
    .clk_i, .we_i(search_we_i), .waddr_i(search_waddr_i), .wdata_i(search_wdata_i),
    .re_i(mem_re_i), .raddr_i(search_raddr_i), .rdata_o(search_rdata_o)
  );
  lut_ram #(.Width(32), .Depth(Rows)) u_list (
    .clk_i, .we_i(list_we_i), .waddr_i(list_waddr_i), .wdata_i(list_wdata_i),
    .raddr_i(list_raddr_i), .rdata_o(list_rdata_o)
  );
  lut_ram #(.Width(32), .Depth(Rows)) u_score (
    .clk_i, .we_i(score_we_i), .waddr_i(score_waddr_i), .wdata_i(score_wdata_i),
    .raddr_i(score_raddr_i), .rdata_o(score_rdata_o)
  );

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

  logic signed [ScoreBits-1:0] sim_d, sim_q, sim2_q;
  logic signed [31:0]          score_d, score_q, score1_q, score2_q;
  // The sense line: mismatch x rate in 2^-24 octaves, then 2^(-fraction) and
  // the whole octaves (32 for "discharged"), then the voltage.
  localparam int unsigned DecayW = ScoreBits + ucm_pkg::RateW;
  logic [DecayW-1:0]           decay_q;
  logic [ucm_pkg::Exp2W-1:0]   exp_q;
  logic [5:0]                  octaves_q;
  logic [ucm_pkg::VoltW-1:0]   volt_q;
  logic [ucm_pkg::Exp2W-1:0]   exp2_rom [256];  // a ROM: block RAM or LUTs
  initial for (int unsigned f = 0; f < 256; f++) exp2_rom[f] = ucm_pkg::exp2_neg(f);
  logic signed [ScoreBits-1:0] plane_sum_d, plane_sum_q;  // |.| <= 31 Dim
  logic signed [31:0]          code_d;
  // Read noise: the draw coordinate steps by Lanes slots a row; mixing and
  // scaling take three clocks, meeting the row's delayed similarity.
  logic [31:0]                 noise_index_q, noise_a_q, noise_b_q;
  logic signed [31:0]          noise_c_q;
  ucm_pkg::slot_meta_t         meta_q;

  // The arithmetic runs only in the states that use it (an idle block costs
  // the simulator almost nothing).
  always_comb begin : c_arith
    // Sign extensions written out, so every product's and sum's width shows.
    logic signed [7:0]  conductance, shifted;
    logic signed [2:0]  level;
    logic [31:0]        plane;
    logic [Dim*ScoreBits-1:0] terms;
    {conductance, shifted, level} = '0;
    plane       = '0;
    terms       = '0;
    sim_d       = '0;
    score_d     = '0;
    plane_sum_d = '0;
    code_d      = '0;
    if (state_i == ucm_pkg::ST_SCORE) begin
      // A product conductance x level is a shift and a complement; the
      // complements' +1s arrive counted (qneg_i).
      for (int unsigned d = 0; d < Dim; d++) begin
        conductance = {{2{key_rdata_o[d*6+5]}}, key_rdata_o[d*6 +: 6]};
        level       = qlevel_i[d*3 +: 3];
        shifted     = (level == 3'sd2 || level == -3'sd2) ? conductance <<< 1 : conductance;
        if (level == 3'sd0) shifted = '0;
        if (level[2]) shifted = ~shifted;  // - x = ~x + 1, the +1 in qneg_i
        terms[d*ScoreBits +: ScoreBits] = {{(ScoreBits-8){shifted[7]}}, shifted};
      end
      sim_d   = tree_sum(terms);
      score_d = {{(32-ScoreBits){sim2_q[ScoreBits-1]}}, sim2_q} + 32'(qneg_i) + noise_c_q;
    end
    if (state_i == ucm_pkg::ST_EXACT) begin
      plane = 32'(plane_group_i) * Lanes + Lane;
      for (int unsigned d = 0; d < Dim; d++) begin
        terms[d*ScoreBits +: ScoreBits] = (plane < QBits && query_i[d*8 + 32'(plane[2:0])]) ?
            {{(ScoreBits-6){exact_row_i[d*6+5]}}, exact_row_i[d*6 +: 6]} : '0;
      end
      plane_sum_d = tree_sum(terms);
      code_d = {{(32-ScoreBits){plane_sum_q[ScoreBits-1]}}, plane_sum_q};
      if (!ideal_i) code_d = ucm_pkg::adc(code_d, adc_gain_i, adc_shift_i, 32'(adc_bits_i));
    end
  end

  always_ff @(posedge clk_i) begin : s_stages
    if (state_i == ucm_pkg::ST_IDLE) noise_index_q <= 32'(Lane) * ucm_pkg::DrawIndexMul;
    if (state_i == ucm_pkg::ST_SCORE) begin
      noise_index_q <= noise_index_q + 32'(Lanes) * ucm_pkg::DrawIndexMul;
      noise_a_q     <= ucm_pkg::mix_a(noise_base_i + noise_index_q);
      noise_b_q     <= ucm_pkg::mix_b(noise_a_q);
      noise_c_q     <= ucm_pkg::noise(ucm_pkg::mix_out(noise_b_q), read_noise_i);
      sim_q         <= sim_d;
      sim2_q        <= sim_q;
      score_q       <= score_d;
      decay_q       <= DecayW'(mismatch(drive_i, score_q[ScoreBits:0])) * DecayW'(sense_rate_i);
      score1_q      <= score_q;
      exp_q         <= exp2_rom[decay_q[23:16]];
      octaves_q     <= (decay_q >> 24) >= DecayW'(32) ? 6'd32 : 6'(decay_q >> 24);
      score2_q      <= score1_q;
      volt_q        <= octaves_q[5] ? '0 : ucm_pkg::VoltW'((29'(vpre_i) * 29'(exp_q)) >> octaves_q);
      score_o       <= score2_q;
    end
    if (state_i == ucm_pkg::ST_SCORE || state_i == ucm_pkg::ST_VICTIM) meta_q <= meta_rdata_o;
    if (state_i == ucm_pkg::ST_EXACT) begin
      plane_sum_q <= plane_sum_d;
      code_o      <= code_d;
    end
  end

  // The row's mismatch units: the query's drive less S, no less than 0 (a
  // row cannot charge its sense line). |S| < 2^(ScoreBits-1) and the drive
  // < 2^(ScoreBits-2), so ScoreBits + 1 bits hold the difference.
  function automatic logic [ScoreBits-1:0] mismatch(logic [ScoreBits-1:0] drive, logic signed [ScoreBits:0] s);
    logic signed [ScoreBits:0] m;
    m = $signed({1'b0, drive}) - s;
    mismatch = m[ScoreBits] ? '0 : m[ScoreBits-1:0];
  endfunction

  // Charge sharing of the sense line at V with the accumulator:
  // acc + ((V - acc) * w) >>> 16, w = C_SL / (C_SL + C_ACC) in 2^-16.
  function automatic logic [31:0] charge_circuit(logic [31:0] acc, logic [ucm_pkg::VoltW-1:0] v,
                                                 logic [ucm_pkg::WeightW-1:0] w);
    logic signed [32:0] diff;
    logic signed [49:0] step;
    diff = $signed({1'b0, 32'(v)}) - $signed({1'b0, acc});
    step = diff * $signed({1'b0, w});  // both signed: a 33 x 17-bit product, sign-extended
    charge_circuit = acc + 32'(step >>> 16);
  endfunction

  // The linear ablation: acc + ((x - acc) >>> alpha), x = S biased onto 32 bits.
  function automatic logic [31:0] charge_share(logic [31:0] acc, logic [ScoreBits-1:0] s, logic [4:0] sh);
    logic [31:0] x;
    logic signed [32:0] diff;
    x = (32'(s) ^ (32'(1) << (ScoreBits - 1))) << (32 - ScoreBits);
    diff = $signed({1'b0, x}) - $signed({1'b0, acc});
    charge_share = acc + 32'(diff >>> sh);
  endfunction

  // The metadata a write stores (fields in slot_meta_t's order): built from
  // the slot's as read, or the scored row's for charge sharing, which
  // commits it four cycles after the read. Only the write's own case is
  // computed, so an idle lane costs the simulator little.
  ucm_pkg::slot_meta_t meta_wdata;
  always_comb begin : c_meta_write
    unique case (meta_op_i)
      ucm_pkg::META_NEW:    meta_wdata = {new_acc_i, new_pos_i, protect_i, 1'b1};
      ucm_pkg::META_CTRL:   meta_wdata = {meta_rdata_o.acc, meta_rdata_o.pos, protect_i && !invalidate_i,
                                          meta_rdata_o.valid && !invalidate_i};
      ucm_pkg::META_CHARGE: meta_wdata = {linear_i ? charge_share(meta_q.acc, score_o[ScoreBits-1:0], alpha_i)
                                                   : charge_circuit(meta_q.acc, volt_q, share_weight_i),
                                          meta_q.pos, meta_q.protect, meta_q.valid};
      ucm_pkg::META_ADD:    meta_wdata = {added_acc_i, meta_rdata_o.pos, meta_rdata_o.protect, meta_rdata_o.valid};
      default:              meta_wdata = '0;
    endcase
  end

  wire forced = meta_q.valid && meta_q.protect && force_protected_i;
  assign entry_o     = {forced, meta_q.valid && !(meta_q.protect && force_protected_i), score_o[ScoreBits-1:0]};
  assign valid_o     = meta_q.valid;
  assign protect_o   = meta_q.protect;
  assign acc_o       = meta_q.acc;
  assign pos_o       = meta_q.pos;

endmodule : ucm_lane
