// SEARCH's top-k selection and FIND_VICTIM's min-detect, over the rows the
// controller (ucm_block) streams past: Lanes slots a cycle.
//
// SEARCH: the score pass counts forced slots and, in threshold mode, slots
// at or over THRESHOLD; unless that settles the cut, one radix pass per
// score bit (ScoreBits passes, most significant first) finds the largest
// bound t with at least `want` candidates at or above it, one more pass
// counts those strictly above it, and the emit pass writes the forced slots,
// the ones above the cut and the first ties to LIST/SCORE in slot order.
// FIND_VICTIM: the valid unprotected slot with the lowest accumulator, then
// the oldest position, then the lowest slot.
module ucm_select #(
  parameter int unsigned Dim,
  parameter int unsigned Lanes,
  localparam int unsigned ScoreBits = ucm_pkg::score_bits(Dim),
  localparam int unsigned SearchW   = ScoreBits + 2,
  localparam int unsigned LaneBits  = $clog2(Lanes)
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  ucm_pkg::state_e              state_i,
  input  logic                         start_i,         // a command starts: clear the counts
  input  logic [15:0]                  cnt_i,           // the pass's cycle
  input  logic                         score_commit_i,  // the score pass commits a row
  input  logic                         score_last_i,    // the score pass's last cycle
  input  logic                         pass_last_i,     // a one-stage pass's drain cycle
  input  logic [15:0]                  k_i,
  input  logic [31:0]                  threshold_i,
  input  logic                         threshold_mode_i,
  // By lane: the scored row's forced and candidate flags and S, a later
  // pass's stored {forced, cand, S}, and the scored or min-detected row's slot.
  input  logic [Lanes-1:0]             scored_forced_i,
  input  logic [Lanes-1:0]             scored_cand_i,
  input  logic [Lanes*32-1:0]          score_i,
  input  logic [Lanes*SearchW-1:0]     entry_i,
  input  logic [Lanes-1:0]             valid_i,
  input  logic [Lanes-1:0]             protect_i,
  input  logic [Lanes*32-1:0]          acc_i,
  input  logic [Lanes*16-1:0]          pos_i,
  output logic                         skip_radix_o,    // at score_last_i: the cut is known, emit next
  output logic                         radix_done_o,    // this radix pass decides the last bit
  output logic [Lanes-1:0]             take_o,          // emit: lane l's slot is selected
  output logic [Lanes*16-1:0]          take_idx_o,      //   as LIST entry take_idx_o[l]
  output logic [15:0]                  emitted_o,       // entries emitted, this cycle's included
  output logic                         victim_found_o,
  output logic [15:0]                  victim_slot_o
);

  localparam logic [ScoreBits-1:0] SignBit = ScoreBits'(1) << (ScoreBits - 1);

  logic [15:0]          forced_q, tally_q, ties_q, out_q;
  logic [ScoreBits-1:0] bound_q, try_bound_q;  // radix select: the bound so far, this pass's candidate
  logic [5:0]           bit_q;                 // the bound bit this radix pass tries
  logic                 decide_q;              // the last radix pass's count awaits its verdict
  logic signed [16:0]   want_q;                // k less the forced slots
  logic signed [31:0]   cut_q;                 // emit: S above this is taken, S equal to it while ties_q lasts
  logic                 take_all_q;            // threshold mode: every S at the cut is taken
  logic                 found_q;
  logic [31:0]          best_acc_q;
  logic [15:0]          best_pos_q, best_slot_q;

  // This cycle's counts and choices.
  logic [15:0]        forced_n, over_thr_n, tally_n, taken_n, ties_n;
  logic [31:0]        victim_acc;
  logic [15:0]        victim_pos;
  logic signed [16:0] want;

  wire scanning = (cnt_i != 16'd0);  // a pass's read data is valid from its second cycle

  always_comb begin : c_scan
    logic [SearchW-1:0]  entry;
    logic signed [31:0]  s, score;
    logic [31:0]         acc;
    logic [15:0]         pos;
    logic [ScoreBits-1:0] biased;  // S as an unsigned number, order kept
    logic forced, cand;
    entry      = '0;
    acc        = '0;
    pos        = '0;
    s          = '0;
    score      = '0;
    biased     = '0;
    forced     = 1'b0;
    cand       = 1'b0;
    forced_n   = forced_q;
    over_thr_n = '0;
    tally_n    = tally_q;
    taken_n    = '0;
    ties_n     = ties_q;
    take_o     = '0;
    take_idx_o = '0;
    victim_found_o = found_q;
    victim_acc     = best_acc_q;
    victim_pos     = best_pos_q;
    victim_slot_o  = best_slot_q;
    if (state_i != ucm_pkg::ST_IDLE) begin  // an idle block scans nothing
      for (int unsigned l = 0; l < Lanes; l++) begin
        score  = score_i[l*32 +: 32];
        acc    = acc_i[l*32 +: 32];
        pos    = pos_i[l*16 +: 16];
        entry  = entry_i[l*SearchW +: SearchW];
        s      = {{(32-ScoreBits){entry[ScoreBits-1]}}, entry[ScoreBits-1:0]};
        biased = entry[ScoreBits-1:0] ^ SignBit;
        cand   = entry[ScoreBits];
        forced = entry[ScoreBits+1];
        unique case (state_i)
          // Score pass: candidates and the threshold count, from the slot's flags.
          ucm_pkg::ST_SCORE: begin
            if (scored_forced_i[l]) forced_n = forced_n + 16'd1;
            if (scored_cand_i[l] && score >= $signed(threshold_i)) over_thr_n = over_thr_n + 16'd1;
          end
          ucm_pkg::ST_RADIX: if (scanning && cand && biased >= try_bound_q) tally_n = tally_n + 16'd1;
          ucm_pkg::ST_GT:    if (scanning && cand && biased > bound_q) tally_n = tally_n + 16'd1;
          ucm_pkg::ST_EMIT: begin
            if (forced || (cand && s > cut_q)) begin
              take_o[l] = 1'b1;
            end else if (cand && s == cut_q && (take_all_q || ties_n != 16'd0)) begin
              take_o[l] = 1'b1;
              if (!take_all_q) ties_n = ties_n - 16'd1;
            end
            take_idx_o[l*16 +: 16] = out_q + taken_n;
            if (take_o[l]) taken_n = taken_n + 16'd1;
          end
          ucm_pkg::ST_VICTIM: begin
            if (valid_i[l] && !protect_i[l] && (!victim_found_o || acc < victim_acc || (acc == victim_acc && pos < victim_pos))) begin
              victim_found_o = 1'b1;
              victim_acc     = acc;
              victim_pos     = pos;
              victim_slot_o  = ((cnt_i - 16'd2) << LaneBits) + 16'(l);
            end
          end
          default: ;
        endcase
      end
    end
    emitted_o    = out_q + taken_n;
    want         = $signed({1'b0, k_i}) - $signed({1'b0, forced_n});
    skip_radix_o = (want <= 0) || (threshold_mode_i && $signed({1'b0, tally_q + over_thr_n}) <= want);
    radix_done_o = (bit_q == 6'd0);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_select
    if (!rst_ni) begin
      forced_q    <= '0;
      tally_q     <= '0;
      ties_q      <= '0;
      out_q       <= '0;
      bound_q     <= '0;
      try_bound_q <= '0;
      bit_q       <= '0;
      decide_q    <= 1'b0;
      want_q      <= '0;
      cut_q       <= '0;
      take_all_q  <= 1'b0;
      found_q     <= 1'b0;
      best_acc_q  <= '0;
      best_pos_q  <= '0;
      best_slot_q <= '0;
    end else if (start_i) begin
      forced_q <= '0;
      tally_q  <= '0;
      out_q    <= '0;
      found_q  <= 1'b0;
    end else begin
      unique case (state_i)
        ucm_pkg::ST_SCORE: begin
          if (score_commit_i) begin
            forced_q <= forced_n;
            tally_q  <= tally_q + over_thr_n;
          end
          if (score_last_i) begin
            want_q      <= want;
            tally_q     <= '0;
            bound_q     <= '0;
            bit_q       <= 6'(ScoreBits - 1);
            try_bound_q <= SignBit;
            take_all_q  <= 1'b0;
            ties_q      <= '0;
            if (want <= 0) begin
              cut_q <= 32'sh7FFF_FFFF;
            end else if (skip_radix_o) begin
              cut_q      <= threshold_i;
              take_all_q <= 1'b1;
            end
          end
        end
        ucm_pkg::ST_RADIX: begin
          tally_q <= tally_n;
          if (pass_last_i) begin
            decide_q <= 1'b1;
            if (!radix_done_o) bit_q <= bit_q - 6'd1;
          end
        end
        ucm_pkg::ST_GT: begin
          tally_q <= tally_n;
          if (pass_last_i) begin
            ties_q <= 16'(want_q) - tally_n;
            cut_q  <= 32'(bound_q) - (32'sd1 <<< (ScoreBits - 1));
          end
        end
        ucm_pkg::ST_EMIT: begin
          if (scanning) begin
            out_q  <= emitted_o;
            ties_q <= ties_n;
          end
        end
        ucm_pkg::ST_VICTIM: begin
          if (cnt_i >= 16'd2) begin
            found_q     <= victim_found_o;
            best_acc_q  <= victim_acc;
            best_pos_q  <= victim_pos;
            best_slot_q <= victim_slot_o;
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
          bound_q     <= try_bound_q;
          try_bound_q <= try_bound_q | (ScoreBits'(1) << bit_q);
        end else begin
          try_bound_q <= bound_q | (ScoreBits'(1) << bit_q);
        end
      end
    end
  end

endmodule : ucm_select
