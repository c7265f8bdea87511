// The UniCAIM array's element arithmetic, the same integer rules as the golden
// model's firmware/lib/unicaim/ucm_arith.c (docs/unicaim.md states them).
// Functions rather than modules: the block calls them only in the states
// that need them, which keeps an idle block cheap to simulate.
package ucm_pkg;

  // The engine's states: one per pass kind (ucm_block's controller).
  typedef enum logic [3:0] {
    ST_IDLE, ST_WRITE, ST_CTRL, ST_READ, ST_RESET, ST_SCORE, ST_RADIX, ST_GT,
    ST_EMIT, ST_VALIDATE, ST_EXACT, ST_ACC, ST_VICTIM
  } state_e;

  // The counters in register order (regmap.toml): busy cycles per mode, then
  // device events.
  typedef enum logic [3:0] {
    C_WRITE, C_SEARCH, C_EXACT, C_ACC, C_VICTIM, C_MISC, E_CELL_WRITE, E_CELL_SEARCH,
    E_ACC_CHARGE, E_ADC_CONV, E_ADC_ROUND, E_MIN_DETECT, E_SEARCH, E_ACC_DIGITAL
  } counter_e;
  localparam int unsigned Counters = 32'(E_ACC_DIGITAL) + 32'd1;

  // A slot's metadata, stored beside its key row.
  typedef struct packed {
    logic [31:0] acc;      // charge-domain accumulator (unsigned)
    logic [15:0] pos;      // token position
    logic        protect;
    logic        valid;
  } slot_meta_t;
  localparam int unsigned SlotMetaW = 50;  // $bits(slot_meta_t), which Yosys cannot take of a type

  // How a command changes the metadata of the slots it writes (ucm_lane).
  typedef enum logic [2:0] {
    META_CLEAR,   // RESET_BANK: invalid, zero
    META_NEW,     // WRITE_KEY: valid, protect = F_PROTECT, POS, ACC_INIT
    META_CTRL,    // SLOT_CTRL: protect = F_PROTECT, or invalidate
    META_CHARGE,  // SEARCH with F_ACCUMULATE: the scored row's charge sharing
    META_ADD      // ACC_ADD: the addend onto acc, saturating
  } meta_op_e;

  // Yosys 0.23 reads struct members only of plain signals and ports (not of
  // array elements, block-local variables or function arguments) and cannot
  // assign them or return a struct from a function called in a branch:
  // metadata is read by field and written whole.

  // Width of an index into n things (at least one bit).
  function automatic int unsigned index_bits(int unsigned n);
    index_bits = (n > 1) ? $clog2(n) : 1;
  endfunction

  // Width of a similarity S of dim cells: |S| < 64 x dim, a sign bit and
  // headroom for the read noise.
  function automatic int unsigned score_bits(int unsigned dim);
    score_bits = $clog2(64 * dim) + 2;
  endfunction

  // Conductance of a cell in eighths of a level, |value| <= CellMax.
  localparam int signed CellMax = 31;

  // Draws are lowbias32(seed + serial * DrawSerialMul + index * DrawIndexMul
  // + domain * DrawDomainMul): a pure function of their coordinates, in the
  // domains 0 (cell variation), 1 (stuck cells) and 2 (read noise). The block
  // keeps the sum as running terms (adds only) and mixes it in three steps,
  // one per clock, so no two multipliers sit in one cycle:
  // mix_out(mix_b(mix_a(x))) is lowbias32(x).
  localparam logic [31:0] DrawSerialMul = 32'h9E37_79B9;
  localparam logic [31:0] DrawIndexMul  = 32'h85EB_CA77;
  localparam logic [31:0] DrawDomainMul = 32'hC2B2_AE3D;

  function automatic logic [31:0] mix_a(logic [31:0] x);
    mix_a = (x ^ (x >> 16)) * 32'h7FEB_352D;
  endfunction

  function automatic logic [31:0] mix_b(logic [31:0] x);
    mix_b = (x ^ (x >> 15)) * 32'h846C_A68B;
  endfunction

  function automatic logic [31:0] mix_out(logic [31:0] x);
    mix_out = x ^ (x >> 16);
  endfunction

  // Approximately Gaussian: the draw's four bytes summed and centred
  // (standard deviation 147.8), scaled by sigma: round(g * sigma * 7 / 8192).
  // Narrow widths (|g| <= 510, |g * sigma * 7| < 2^20), so one multiplier:
  // sigma * 7 is a subtraction beside the bytes' sum (the same product as the
  // golden model's (g * sigma) * 7, without a second multiplier in series).
  function automatic logic signed [31:0] noise(logic [31:0] rnd, logic [7:0] sigma);
    logic signed [10:0] gauss;
    logic [10:0]        sigma7;
    logic signed [22:0] scaled;
    gauss  = 11'({3'b0, rnd[7:0]} + {3'b0, rnd[15:8]} + {3'b0, rnd[23:16]} + {3'b0, rnd[31:24]} - 11'd510);
    sigma7 = {sigma, 3'b0} - {3'b0, sigma};
    scaled = $signed({{12{gauss[10]}}, gauss}) * $signed({12'b0, sigma7}) + 23'sd4096;
    noise  = $signed({{9{scaled[22]}}, scaled}) >>> 13;
  endfunction

  // Magnitude level of |v| by step: min(max_level, (|v| + step/2) / step).
  function automatic logic [1:0] magnitude(logic [7:0] v, logic [7:0] step_raw, logic [1:0] max_level);
    logic [9:0] step, mag;
    step = (step_raw == 8'd0) ? 10'd1 : {2'b0, step_raw};
    mag  = (v[7] ? 10'(-$signed({2'b11, v})) : {2'b0, v}) + (step >> 1);
    if (max_level == 2'd3 && mag >= 10'(3 * step))  magnitude = 2'd3;
    else if (mag >= 10'(2 * step))                  magnitude = 2'd2;
    else if (mag >= step)                           magnitude = 2'd1;
    else                                            magnitude = 2'd0;
  endfunction

  // A written cell, in two steps: the level of the key component (1-bit
  // cells store the sign, +-1; 3-bit cells the signed magnitude, -3..3), then
  // its conductance in eighths: 8 x level plus the threshold-voltage offset,
  // clamped; a stuck cell holds the full level of its draw's sign.
  function automatic logic signed [2:0] cell_level(logic [7:0] key, logic [7:0] step, int unsigned cell_bits);
    logic [1:0] m;
    m = magnitude(key, step, 2'd3);
    if (cell_bits == 1) cell_level = key[7] ? -3'sd1 : 3'sd1;
    else cell_level = key[7] ? -$signed({1'b0, m}) : $signed({1'b0, m});
  endfunction

  function automatic logic signed [5:0] cell_value(logic signed [2:0] level, logic signed [31:0] offset,
                                                   int unsigned cell_bits, logic [15:0] stuck_rate,
                                                   logic [16:0] stuck_draw);
    logic signed [31:0] value, full;
    full  = (cell_bits == 1) ? 32'sd8 : 32'sd24;
    value = $signed({{29{level[2]}}, level}) * 32'sd8 + offset;
    if (value > CellMax) value = CellMax;
    if (value < -CellMax) value = -CellMax;
    if (stuck_draw[15:0] < stuck_rate) value = stuck_draw[16] ? full : -full;
    cell_value = value[5:0];
  endfunction

  // CAM drive level of a query component: -2..2 by step.
  function automatic logic signed [2:0] query_level(logic [7:0] q, logic [7:0] step);
    logic [1:0] m;
    m = magnitude(q, step, 2'd2);
    query_level = q[7] ? -$signed({1'b0, m}) : $signed({1'b0, m});
  endfunction

  // Converter resolution in use: ADC_CFG.BITS when 2..built_bits, else built_bits.
  function automatic logic [4:0] adc_bits_in_use(logic [4:0] cfg_bits, int unsigned built_bits);
    if (cfg_bits < 5'd2 || 32'(cfg_bits) > built_bits) adc_bits_in_use = 5'(built_bits);
    else adc_bits_in_use = cfg_bits;
  endfunction

  // Signed converter of adc_bits: sat((current * gain) >>> shift).
  function automatic logic signed [31:0] adc(logic signed [31:0] current, logic [7:0] gain, logic [3:0] shift,
                                             int unsigned adc_bits);
    logic signed [31:0] scaled, hi;
    hi     = (32'sd1 <<< (adc_bits - 1)) - 32'sd1;
    scaled = (current * $signed({24'b0, gain})) >>> shift;
    if (scaled > hi) adc = hi;
    else if (scaled < -hi - 32'sd1) adc = -hi - 32'sd1;
    else adc = scaled;
  endfunction

  // The sense line (docs/unicaim.md). Voltages in 2^-16 mV, decay rates in
  // 2^-24 octaves per mismatch unit. Two ROMs, filled at elaboration from
  // these functions: recip(n) = floor(2^24 / n) for the trim values'
  // divisions (n < 512: C_SL, and C_SL + C_ACC), and exp2_neg(f) = 2^16 *
  // 2^(-f/256) from the recurrence E(0) = 2^30, E(f+1) = round(E(f) *
  // Exp2Step / 2^30), an entry round(E(f) / 2^14).
  localparam int unsigned RecipW  = 25;
  localparam int unsigned RecipN  = 512;
  localparam int unsigned Exp2W   = 17;
  localparam logic [63:0] Exp2Step = 64'd1070838486;  // round(2^30 * 2^(-1/256))
  localparam int unsigned RateW   = 25;  // SENSE_TS_MAX_PS * SENSE_RATE_K < 2^25
  localparam int unsigned WeightW = 16;  // C_SL / (C_SL + C_ACC) < 1 in 2^-16
  localparam int unsigned VoltW   = 28;  // SENSE_VPRE_MAX_MV * 2^16 < 2^28

  function automatic logic [RecipW-1:0] recip(int unsigned n);
    recip = (n == 0) ? '0 : RecipW'((32'd1 << 24) / n);
  endfunction

  function automatic logic [Exp2W-1:0] exp2_neg(int unsigned f);
    logic [63:0] e;
    e = 64'd1 << 30;
    for (int unsigned i = 0; i < f; i++) e = (e * Exp2Step + (64'd1 << 29)) >> 30;
    exp2_neg = Exp2W'((e + 64'd8192) >> 14);
  endfunction

endpackage : ucm_pkg
