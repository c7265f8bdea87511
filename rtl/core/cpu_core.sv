// RV32IM + Zicsr + Zicntr machine-mode core with packed dot products and an
// exponential (custom-0, cpu_dot and cpu_exp2), five stages:
//   IF  the fetch address is a register (pc_q); the branch target buffer
//       (cpu_btb), read with it in the same cycle, sends the next fetch to a
//       stored target when it knows a taken jal or branch there (no bubble);
//   IF2 the word arrives from the memory and is registered into ID; a word
//       the memory does not have yet (the instruction cache is filling its
//       line: ibus_valid_i low) goes into ID as a bubble and the fetch
//       starts again from its address in the next cycle, until it is there;
//   ID  decodes the word, reads the register file and checks the fetch's
//       guess: jal is taken, a branch follows its counter (backward while the
//       buffer does not know it), anything else falls through; a wrong guess
//       redirects the fetch from here (two bubbles);
//   EX  executes, resolves branches (a misprediction, jalr, mret and fence.i
//       redirect from here: three bubbles), issues loads/stores, accesses
//       CSRs and takes every trap except bus faults;
//   WB  receives load data, writes the register file and takes load/store
//       access faults, which squash the younger instruction in EX before it
//       has any effect. A slow device (external memory) answers later: until
//       then WB waits and the whole pipeline holds (dbus_rvalid_i).
// EX forwards results from WB, except the late ones, a load's data and a dot
// product's sum: an instruction that uses one right after it waits one cycle
// in EX and takes it into its operand register as it passes WB. Whether it
// must wait is decided as it enters EX, so the stall that holds the fetch
// comes from registers and not from decoding the fetched word. No block-RAM
// output feeds a block-RAM input in the same cycle, which is what keeps the
// clock up on FPGAs.
// Multiplies need no stall: the 64-bit product goes straight into a WB
// register (no result mux after the multiplier) and WB forwards the half the
// instruction asked for. Divisions stall EX until done. A dot product reads
// rd as a third source, the accumulator (x0 in the forms from zero): EX sums
// the products, WB adds the accumulator (multipliers and additions in one
// cycle were the FPGA's longest path). A chain of dot products into one
// register runs without a stall: the accumulator alone is forwarded from WB's
// sum (that path has no multiplier). ucx.exp2 runs as a dot product from
// zero: EX gives the table's shifted entry as the accumulator and its
// rounding bit as the sum, WB adds them (no adder after the table).
module cpu_core
#(
  parameter logic [31:0] HartId      = 32'd0,
  parameter bit          DotProducts = 1'b1   // 0: custom-0 is illegal (the extension's cost, make synth)
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [31:0] boot_addr_i,

  // Instruction bus: a read every cycle, answered the next cycle; with hold
  // set the memories skip the read and keep answering the last word (ID holds
  // it through a stall without a copy of its own). valid low: the word is
  // not there yet, ask again (from registers: it goes into registers only).
  // fence_i marks fence.i in the cycle it executes (instruction caches drop
  // their lines; the fetch after it starts in the next cycle or later).
  output logic [31:0] ibus_addr_o,
  output logic        ibus_hold_o,
  input  logic [31:0] ibus_rdata_i,
  input  logic        ibus_valid_i,
  input  logic        ibus_err_i,
  output logic        fence_i_o,

  // Data bus: a request is answered the next cycle or later (stores too, for
  // faults): rvalid marks the cycle the answer is there, and until then no
  // stage moves and no new request is made. rvalid must come from registers
  // (it holds every stage). A trap found late in the cycle withdraws a
  // request (kill): the bus may have started a read, but nothing may change.
  output logic        dbus_req_o,
  output logic        dbus_kill_o,
  output logic        dbus_we_o,
  output logic [3:0]  dbus_be_o,
  output logic [31:0] dbus_addr_o,
  output logic [31:0] dbus_wdata_o,
  input  logic        dbus_rvalid_i,
  input  logic [31:0] dbus_rdata_i,
  input  logic        dbus_err_i,

  input  logic        timer_irq_i,
  input  logic        ext_irq_i,
  input  logic [63:0] time_i
);

  // ---------------------------------------------------------------- IF / ID
  logic        started_q;
  logic [31:0] pc_q, pc_d;              // the address being fetched
  logic        btb_hit, btb_taken;      // the buffer's guess for pc_q
  logic [31:2] btb_target;
  logic [1:0]  btb_counter;
  logic        f_live_q;                // IF2: the word arriving is on the program path
  logic        f_miss;                  // IF2's word is on that path and not there yet
  logic        refetch_q;               // fetch id_pc_q again (ID holds the bubble of the missing word)
  logic [31:0] f_pc_q;
  logic        f_guess_q, f_hit_q;      // the fetch went to f_target_q after it
  logic [31:2] f_target_q;
  logic [1:0]  f_counter_q;
  logic        id_live_q;               // ID holds an instruction of the program path
  logic [31:0] id_pc_q, id_instr_q;
  logic        id_err_q, id_guess_q, id_hit_q;
  logic [31:2] id_guess_target_q;
  logic [1:0]  id_counter_q;
  logic        id_taken, id_redirect;   // ID's prediction; it differs from the fetch's
  logic [31:0] pc_seq, pc_ex;
  logic [31:0] id_target, id_target_jal, id_target_branch;
  cpu_pkg::decoded_t    id_dec;
  logic        id_rs1_used, id_rs2_used;
  logic [31:0] id_rs1_value, id_rs2_value, id_rs3_value;  // rs3: a dot product's accumulator

  // ---------------------------------------------------------------- EX
  logic        ex_valid_q, ex_ifault_q, ex_predicted_q, ex_hit_q;
  cpu_pkg::fwd_sel_e ex_fwd_rs1_q, ex_fwd_rs2_q, ex_fwd_rs3_q;  // operands from the instruction now in WB
  logic        ex_late_rs1_q, ex_late_rs2_q, ex_late_rs3_q;  // the operand is WB's late result (wb_result)
  logic        ex_late;                     // the instruction in EX has a late result
  logic        ex_wait, ex_go;              // EX waits for a late result / acts this cycle
  logic [1:0]  ex_counter_q;
  logic [31:0] ex_pc_q, ex_instr_q, ex_rs1_q, ex_rs2_q, ex_rs3_q;
  cpu_pkg::decoded_t    ex_dec_q;
  logic [31:0] ex_rs1, ex_rs2, ex_rs3, ex_dot_sum, ex_exp2_value, ex_op_a, ex_op_b, ex_alu_result, ex_addr;
  logic        ex_exp2_round;
  logic [31:0] ex_target, ex_pc4, ex_result, ex_csr_rdata, ex_redirect_target;
  logic        ex_branch_taken, ex_jump, ex_busy, ex_eq, ex_lt, ex_ltu;
  logic        id_hold;
  logic        ex_misaligned_target, ex_mem_misaligned, ex_csr_illegal, dot_enable;
  logic        ex_exception, ex_irq_take, ex_trap, ex_redirect, ex_retire, ex_withdrawn;
  logic [4:0]  ex_cause;
  logic [31:0] ex_tval;
  logic [63:0] mul_product;
  logic        div_done, div_start;
  logic [31:0] div_result;

  // ---------------------------------------------------------------- WB
  logic        wb_valid_q, wb_rf_we_q, wb_load_q, wb_store_q;
  logic [4:0]  wb_rd_q;
  logic [2:0]  wb_funct3_q;
  logic [31:0] wb_result_q, wb_addr_q, wb_load_data, wb_result;
  logic        wb_mul_q, wb_dot_q;
  logic [63:0] wb_product_q;
  logic [31:0] wb_dot_sum_q, wb_dot_result;  // a dot product's products; with its accumulator
  logic [31:2] wb_pc_q;
  logic        wb_trap, wb_wait;

  // ---------------------------------------------------------------- traps
  logic        trap, trap_irq, irq_pending, irq_wake;
  logic        ex_sleep /* verilator public_flat_rd */;  // the simulator idles the host on it
  logic [4:0]  trap_cause, irq_cause;
  logic [31:2] trap_pc;  // instructions are word-aligned
  logic [31:0] trap_tval, trap_vector, mepc;

  // ======================================================================
  // IF: the next fetch address. A stall keeps pc_q and the memories' answer.
  // The choices are grouped by when they settle -- from registers and the
  // buffer, from ID's check, from EX (traps, redirects) -- so that each late
  // one passes a single mux.
  cpu_btb #(.IndexBits(6), .TagBits(8)) u_btb (
    .clk_i,
    .fetch_pc_i       (pc_q[15:2]),
    .hit_o            (btb_hit),
    .taken_o          (btb_taken),
    .target_o         (btb_target),
    .counter_o        (btb_counter),
    .update_i         (ex_go && (ex_dec_q.branch || ex_dec_q.jal) && !trap),
    .update_pc_i      (ex_pc_q[15:2]),
    .update_hit_i     (ex_hit_q),
    .update_counter_i (ex_counter_q),
    .taken_i          (ex_jump),
    .update_target_i  (ex_target[31:2])
  );

  always_comb begin
    if (id_hold)        pc_seq = pc_q;
    else if (btb_taken) pc_seq = {btb_target, 2'b00};
    else                pc_seq = pc_q + 32'd4;
  end
  assign pc_ex = trap ? trap_vector : ex_redirect_target;
  always_comb begin
    if (!started_q)               pc_d = boot_addr_i;
    else if (trap || ex_redirect) pc_d = pc_ex;
    else if (refetch_q && !id_hold) pc_d = id_pc_q;
    else if (id_redirect)         pc_d = id_taken ? id_target : id_pc_q + 32'd4;
    else                          pc_d = pc_seq;
  end
  assign ibus_addr_o = pc_q;
  assign ibus_hold_o = id_hold;
  // A missing word is not counted while a refetch is due: IF2 then holds the
  // word fetched after it, which the refetch drops.
  assign f_miss      = f_live_q && !ibus_valid_i && !refetch_q;

  // A redirect empties the stages behind the one that redirects; the data
  // registers just follow. In a stall everything up to ID keeps its place.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      started_q         <= 1'b0;
      pc_q              <= '0;
      f_live_q          <= 1'b0;
      refetch_q         <= 1'b0;
      f_pc_q            <= '0;
      f_guess_q         <= 1'b0;
      f_hit_q           <= 1'b0;
      f_target_q        <= '0;
      f_counter_q       <= '0;
      id_live_q         <= 1'b0;
      id_pc_q           <= '0;
      id_instr_q        <= '0;
      id_err_q          <= 1'b0;
      id_guess_q        <= 1'b0;
      id_hit_q          <= 1'b0;
      id_guess_target_q <= '0;
      id_counter_q      <= '0;
    end else begin
      started_q <= 1'b1;
      pc_q      <= pc_d;
      if (trap || ex_redirect || id_redirect || (refetch_q && !id_hold)) f_live_q <= 1'b0;
      else if (!id_hold)                                                 f_live_q <= started_q;
      if (trap || ex_redirect) id_live_q <= 1'b0;
      else if (!id_hold)       id_live_q <= f_live_q && !id_redirect && !f_miss && !refetch_q;
      if (trap || ex_redirect) refetch_q <= 1'b0;
      else if (!id_hold)       refetch_q <= f_miss && !id_redirect;
      if (!id_hold) begin
        f_pc_q            <= pc_q;
        f_guess_q         <= btb_taken;
        f_hit_q           <= btb_hit;
        f_target_q        <= btb_target;
        f_counter_q       <= btb_counter;
        id_pc_q           <= f_pc_q;
        id_instr_q        <= ibus_rdata_i;
        id_err_q          <= ibus_err_i;
        id_guess_q        <= f_guess_q;
        id_hit_q          <= f_hit_q;
        id_guess_target_q <= f_target_q;
        id_counter_q      <= f_counter_q;
      end
    end
  end

  // ======================================================================
  // ID: jal is taken; a branch follows its counter, or, unknown to the
  // buffer, is taken when it goes backward. The fetch guessed right when it
  // went to the same place.
  assign id_taken = id_dec.jal ||
                    (id_dec.branch && (id_hit_q ? id_counter_q[1] : id_instr_q[31]));
  assign id_target_jal    = id_pc_q + cpu_pkg::imm_j(id_instr_q);
  assign id_target_branch = id_pc_q + cpu_pkg::imm_b(id_instr_q);
  assign id_target        = id_instr_q[2] ? id_target_jal : id_target_branch;
  assign id_redirect      = id_live_q && !id_err_q && !id_hold &&
                            (id_taken != id_guess_q ||
                             (id_taken && id_guess_target_q != id_target[31:2]));

  cpu_decoder #(.DotProducts(DotProducts)) u_decoder (
    .instr_i    (id_instr_q),
    .dec_o      (id_dec),
    .rs1_used_o (id_rs1_used),
    .rs2_used_o (id_rs2_used)
  );

  cpu_regfile u_regfile (
    .clk_i,
    .raddr_a_i (id_dec.rs1),
    .raddr_b_i (id_dec.rs2),
    .raddr_c_i (id_dec.rs3),
    .rdata_a_o (id_rs1_value),
    .rdata_b_o (id_rs2_value),
    .rdata_c_o (id_rs3_value),
    .we_i      (wb_valid_q && wb_rf_we_q && !wb_trap && !wb_wait),
    .waddr_i   (wb_rd_q),
    .wdata_i   (wb_result)
  );

  // The instruction in EX, about to move to WB, writes register RS there.
  function automatic logic ex_writes_reg(logic [4:0] rs);
    ex_writes_reg = ex_valid_q && ex_dec_q.rf_we && ex_dec_q.rd != 5'd0 && ex_dec_q.rd == rs;
  endfunction
  assign ex_late = ex_dec_q.load || ex_dec_q.dot;

  // Where WB will hold register RS for the instruction entering EX; ACC: RS
  // is a dot product's accumulator, which may take a dot product's sum.
  function automatic cpu_pkg::fwd_sel_e ex_forward(logic [4:0] rs, logic acc);
    if (!ex_writes_reg(rs) || ex_dec_q.load)            ex_forward = cpu_pkg::FWD_NONE;
    else if (ex_dec_q.dot)                              ex_forward = acc ? cpu_pkg::FWD_DOT : cpu_pkg::FWD_NONE;
    else if (ex_dec_q.result_sel != cpu_pkg::RES_MUL)   ex_forward = cpu_pkg::FWD_RESULT;
    else if (ex_dec_q.funct3[1:0] == 2'b00)             ex_forward = cpu_pkg::FWD_PRODUCT_LO;
    else                                                ex_forward = cpu_pkg::FWD_PRODUCT_HI;
  endfunction

  // An operand in EX: its register, or what WB forwards.
  function automatic logic [31:0] ex_operand(cpu_pkg::fwd_sel_e sel, logic [31:0] own);
    unique case (wb_valid_q ? sel : cpu_pkg::FWD_NONE)
      cpu_pkg::FWD_RESULT:     ex_operand = wb_result_q;
      cpu_pkg::FWD_PRODUCT_LO: ex_operand = wb_product_q[31:0];
      cpu_pkg::FWD_PRODUCT_HI: ex_operand = wb_product_q[63:32];
      cpu_pkg::FWD_DOT:        ex_operand = wb_dot_result;
      default:                 ex_operand = own;
    endcase
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ex_valid_q     <= 1'b0;
      ex_predicted_q <= 1'b0;
      ex_hit_q       <= 1'b0;
      ex_fwd_rs1_q   <= cpu_pkg::FWD_NONE;
      ex_fwd_rs2_q   <= cpu_pkg::FWD_NONE;
      ex_fwd_rs3_q   <= cpu_pkg::FWD_NONE;
      ex_late_rs1_q  <= 1'b0;
      ex_late_rs2_q  <= 1'b0;
      ex_late_rs3_q  <= 1'b0;
      ex_counter_q   <= '0;
      ex_ifault_q    <= 1'b0;
      ex_pc_q     <= '0;
      ex_instr_q  <= '0;
      ex_rs1_q    <= '0;
      ex_rs2_q    <= '0;
      ex_rs3_q    <= '0;
      ex_dec_q    <= '0;
    end else begin
      // Only the valid bit sees a flush (or the bubble behind a load); the
      // data registers follow ID whenever EX is free.
      if (trap || ex_redirect) ex_valid_q <= 1'b0;
      else if (!ex_busy)       ex_valid_q <= id_live_q;
      if (!ex_busy) begin
        ex_predicted_q <= id_taken;
        ex_hit_q       <= id_hit_q;
        ex_fwd_rs1_q   <= ex_forward(id_dec.rs1, 1'b0);
        ex_fwd_rs2_q   <= ex_forward(id_dec.rs2, 1'b0);
        ex_fwd_rs3_q   <= ex_forward(id_dec.rs3, 1'b1);
        ex_late_rs1_q  <= id_rs1_used && ex_writes_reg(id_dec.rs1) && ex_late;
        ex_late_rs2_q  <= id_rs2_used && ex_writes_reg(id_dec.rs2) && ex_late;
        ex_late_rs3_q  <= id_dec.dot && ex_writes_reg(id_dec.rs3) && ex_dec_q.load;
        ex_counter_q   <= id_counter_q;
        ex_ifault_q    <= id_err_q;
        ex_pc_q        <= id_pc_q;
        ex_instr_q     <= id_instr_q;
        ex_rs1_q       <= id_rs1_value;
        ex_rs2_q       <= id_rs2_value;
        ex_rs3_q       <= id_rs3_value;
        ex_dec_q       <= id_dec;
      end else if (ex_wait && !wb_wait) begin
        // The late result is in WB now; next cycle EX executes, and WB no
        // longer holds what the other operands forward: all are taken now.
        ex_late_rs1_q <= 1'b0;
        ex_late_rs2_q <= 1'b0;
        ex_late_rs3_q <= 1'b0;
        ex_fwd_rs1_q  <= cpu_pkg::FWD_NONE;
        ex_fwd_rs2_q  <= cpu_pkg::FWD_NONE;
        ex_fwd_rs3_q  <= cpu_pkg::FWD_NONE;
        ex_rs1_q      <= ex_late_rs1_q ? wb_result : ex_rs1;
        ex_rs2_q      <= ex_late_rs2_q ? wb_result : ex_rs2;
        ex_rs3_q      <= ex_late_rs3_q ? wb_result : ex_rs3;
      end
    end
  end

  // Waiting on a late result, or while WB waits for a slow device, the
  // instruction in EX has no effect (no access, no redirect, no trap of its
  // own).
  assign ex_wait = ex_valid_q && (ex_late_rs1_q || ex_late_rs2_q || ex_late_rs3_q);
  assign ex_go   = ex_valid_q && !ex_wait && !wb_wait;
  assign id_hold = ex_busy;

  // ======================================================================
  // EX: operands forwarded from WB (never a load there: see ex_wait). Which
  // register the instruction moving to WB writes is compared as the next one
  // enters EX (ex_writes_reg), so that only a registered select sits before
  // the adder; WB's valid bit covers the cycles EX waits on a division.
  assign ex_rs1 = ex_operand(ex_fwd_rs1_q, ex_rs1_q);
  assign ex_rs2 = ex_operand(ex_fwd_rs2_q, ex_rs2_q);
  assign ex_rs3 = ex_operand(ex_fwd_rs3_q, ex_rs3_q);

  always_comb begin
    unique case (ex_dec_q.op_a_sel)
      cpu_pkg::OPA_PC:   ex_op_a = ex_pc_q;
      cpu_pkg::OPA_ZERO: ex_op_a = '0;
      default:  ex_op_a = ex_rs1;
    endcase
  end
  assign ex_op_b = ex_dec_q.op_b_imm ? ex_dec_q.imm : ex_rs2;

  cpu_alu u_alu (
    .op_i     (ex_dec_q.alu_op),
    .a_i      (ex_op_a),
    .b_i      (ex_op_b),
    .result_o (ex_alu_result),
    .sum_o    (ex_addr),
    .eq_o     (ex_eq),
    .lt_o     (ex_lt),
    .ltu_o    (ex_ltu)
  );

  // Branches (conditions from the ALU's rs1 - rs2) and jumps.
  always_comb begin
    unique case (ex_dec_q.funct3[2:1])
      2'b00:   ex_branch_taken = ex_eq  ^ ex_dec_q.funct3[0];  // beq, bne
      2'b10:   ex_branch_taken = ex_lt  ^ ex_dec_q.funct3[0];  // blt, bge
      default: ex_branch_taken = ex_ltu ^ ex_dec_q.funct3[0];  // bltu, bgeu
    endcase
  end
  assign ex_jump   = ex_dec_q.jal || ex_dec_q.jalr || (ex_dec_q.branch && ex_branch_taken);
  assign ex_pc4    = ex_pc_q + 32'd4;
  always_comb begin
    if (ex_dec_q.mret)         ex_target = mepc;
    else if (ex_dec_q.fence_i) ex_target = ex_pc4;
    else if (ex_dec_q.jalr)    ex_target = {ex_addr[31:1], 1'b0};
    else                       ex_target = ex_pc_q + ex_dec_q.imm;
  end
  assign ex_misaligned_target = ex_jump && ex_target[1];

  // Multiply: one 33 x 33 signed product serves all four variants.
  logic signed [32:0] mul_a, mul_b;
  logic signed [63:0] mul_full;
  assign mul_a       = {ex_dec_q.funct3[1:0] != 2'b11 && ex_rs1[31], ex_rs1};
  assign mul_b       = {ex_dec_q.funct3[1:0] == 2'b01 && ex_rs2[31], ex_rs2};
  assign mul_full    = mul_a * mul_b;
  assign mul_product = mul_full;

  if (DotProducts) begin : g_dot
    logic [31:0] products;
    cpu_dot u_dot (
      .op_i     (ex_dec_q.funct3),
      .a_i      (ex_rs1),
      .b_i      (ex_rs2),
      .sum_o    (products)
    );
    cpu_exp2 u_exp2 (
      .z_i      (ex_rs1),
      .value_o  (ex_exp2_value),
      .round_o  (ex_exp2_round)
    );
    // ucx.exp2's products are 0 (rs2 is x0): its rounding bit is WB's sum
    assign ex_dot_sum = {products[31:1], products[0] | (ex_dec_q.exp2 && ex_exp2_round)};
  end else begin : g_no_dot
    assign ex_dot_sum    = '0;  // never used: the decoder refuses custom-0
    assign ex_exp2_value = '0;
    assign ex_exp2_round = 1'b0;
  end

  assign div_start = ex_go && ex_dec_q.div && !div_done && !ex_trap && !wb_trap;
  cpu_divider u_divider (
    .clk_i,
    .rst_ni,
    .start_i  (div_start),
    .abort_i  (ex_trap || wb_trap),
    .op_i     (ex_dec_q.funct3[1:0]),
    .a_i      (ex_rs1),
    .b_i      (ex_rs2),
    .done_o   (div_done),
    .result_o (div_result)
  );
  // A division occupies EX until its last iteration (a trap clears ex_valid);
  // wfi until an interrupt that mie enables is pending. It then retires and
  // the interrupt, if mstatus lets it, is taken on the next instruction, so
  // mepc points past the wfi and the loop around it sees what the handler did.
  assign ex_sleep = ex_go && ex_dec_q.wfi && !ex_ifault_q && !irq_wake && !wb_trap;
  assign ex_busy  = ex_wait || wb_wait || (ex_valid_q && ex_dec_q.div && !div_done) || ex_sleep;

  // Loads, stores and jalr take the adder's sum straight, not through the
  // ALU's result mux: adder -> bus decode -> block-RAM enables is the longest
  // path on FPGAs.
  always_comb begin
    unique case (ex_dec_q.funct3[1:0])
      2'b00:   ex_mem_misaligned = 1'b0;
      2'b01:   ex_mem_misaligned = ex_addr[0];
      default: ex_mem_misaligned = ex_addr[1:0] != 2'b00;
    endcase
  end

  cpu_csr #(.HartId(HartId), .DotProducts(DotProducts)) u_csr (
    .clk_i,
    .rst_ni,
    .access_i       (ex_go && ex_dec_q.csr_op != cpu_pkg::CSR_NONE && !ex_withdrawn),
    .addr_i         (ex_instr_q[31:20]),
    .op_i           (ex_dec_q.csr_op),
    .write_i        (ex_dec_q.csr_write),
    .wdata_i        (ex_dec_q.funct3[2] ? ex_dec_q.imm : ex_rs1),
    .rdata_o        (ex_csr_rdata),
    .illegal_o      (ex_csr_illegal),
    .trap_i         (trap),
    .trap_irq_i     (trap_irq),
    .trap_cause_i   (trap_cause),
    .trap_pc_i      (trap_pc),
    .trap_tval_i    (trap_tval),
    .mret_i         (ex_go && ex_dec_q.mret && !ex_withdrawn),
    .trap_vector_o  (trap_vector),
    .mepc_o         (mepc),
    .timer_irq_i,
    .ext_irq_i,
    .irq_pending_o  (irq_pending),
    .irq_cause_o    (irq_cause),
    .irq_wake_o     (irq_wake),
    .dot_enable_o   (dot_enable),
    .instret_i      (ex_retire),
    .instret_undo_i (wb_trap),
    .time_i
  );

  // Every trap a CSR instruction or mret can meet other than an illegal CSR
  // access, known early (CSR writes must not wait for the address adder's
  // traps).
  assign ex_withdrawn = wb_trap || ex_irq_take || ex_ifault_q || ex_dec_q.illegal;

  // Synchronous exceptions of the instruction in EX, highest priority first.
  always_comb begin
    ex_exception = 1'b1;
    ex_cause     = cpu_pkg::EXC_ILLEGAL;
    ex_tval      = '0;
    if (ex_ifault_q) begin
      ex_cause = cpu_pkg::EXC_INSTR_FAULT;
      ex_tval  = ex_pc_q;
    end else if (ex_dec_q.illegal || ex_csr_illegal || (ex_dec_q.dot && !dot_enable)) begin
      ex_cause = cpu_pkg::EXC_ILLEGAL;
      ex_tval  = ex_instr_q;
    end else if (ex_dec_q.ecall) begin
      ex_cause = cpu_pkg::EXC_ECALL_M;
    end else if (ex_dec_q.ebreak) begin
      ex_cause = cpu_pkg::EXC_BREAKPOINT;
      ex_tval  = ex_pc_q;
    end else if (ex_misaligned_target) begin
      ex_cause = cpu_pkg::EXC_INSTR_MISALIGNED;
      ex_tval  = ex_target;
    end else if ((ex_dec_q.load || ex_dec_q.store) && ex_mem_misaligned) begin
      ex_cause = ex_dec_q.store ? cpu_pkg::EXC_STORE_MISALIGNED : cpu_pkg::EXC_LOAD_MISALIGNED;
      ex_tval  = ex_addr;
    end else begin
      ex_exception = 1'b0;
    end
  end

  // Interrupts are taken on the instruction in EX, before it has any effect.
  assign ex_irq_take = ex_go && irq_pending && !wb_trap && !ex_dec_q.wfi;
  assign ex_trap     = ex_go && !wb_trap && (ex_irq_take || ex_exception);
  // ID already went to the target of jal and of predicted branches; EX
  // corrects a wrong guess and handles what ID cannot know.
  assign ex_redirect = ex_go && !trap &&
                       ((ex_dec_q.branch && ex_branch_taken != ex_predicted_q) ||
                        ex_dec_q.jalr || ex_dec_q.mret || ex_dec_q.fence_i);
  assign ex_redirect_target = (ex_dec_q.branch && !ex_branch_taken) ? ex_pc4 : ex_target;
  assign fence_i_o   = ex_redirect && ex_dec_q.fence_i;
  assign ex_retire   = ex_go && !trap && !ex_busy;

  assign dbus_req_o    = ex_go && (ex_dec_q.load || ex_dec_q.store);
  assign dbus_kill_o   = trap;
  assign dbus_we_o     = ex_dec_q.store;
  assign dbus_addr_o   = ex_addr;
  always_comb begin
    unique case (ex_dec_q.funct3[1:0])
      2'b00:   begin dbus_be_o = 4'b0001 << ex_addr[1:0]; dbus_wdata_o = {4{ex_rs2[7:0]}};  end
      2'b01:   begin dbus_be_o = 4'b0011 << ex_addr[1:0]; dbus_wdata_o = {2{ex_rs2[15:0]}}; end
      default: begin dbus_be_o = 4'b1111;                 dbus_wdata_o = ex_rs2;            end
    endcase
    if (ex_dec_q.cbo) begin  // cache maintenance: no bytes, the operation as data
      dbus_be_o    = 4'b0000;
      dbus_wdata_o = {30'b0, ex_dec_q.cbo_op};
    end
  end

  always_comb begin
    unique case (ex_dec_q.result_sel)
      cpu_pkg::RES_PC4: ex_result = ex_pc4;
      cpu_pkg::RES_DIV: ex_result = div_result;
      cpu_pkg::RES_CSR: ex_result = ex_csr_rdata;
      cpu_pkg::RES_DOT: ex_result = ex_dec_q.exp2 ? ex_exp2_value : ex_rs3;  // WB adds the products
      default: ex_result = ex_alu_result;
    endcase
  end

  // ======================================================================
  // WB: an access holds here until the device answers.
  assign wb_wait = wb_valid_q && (wb_load_q || wb_store_q) && !dbus_rvalid_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wb_valid_q  <= 1'b0;
      wb_rf_we_q  <= 1'b0;
      wb_load_q   <= 1'b0;
      wb_store_q  <= 1'b0;
      wb_mul_q    <= 1'b0;
      wb_dot_q    <= 1'b0;
      wb_product_q <= '0;
      wb_dot_sum_q <= '0;
      wb_rd_q     <= '0;
      wb_funct3_q <= '0;
      wb_result_q <= '0;
      wb_addr_q   <= '0;
      wb_pc_q     <= '0;
    end else if (!wb_wait) begin
      wb_valid_q  <= ex_retire;
      wb_rf_we_q  <= ex_dec_q.rf_we;
      wb_load_q   <= ex_dec_q.load;
      wb_store_q  <= ex_dec_q.store;
      wb_mul_q    <= ex_dec_q.result_sel == cpu_pkg::RES_MUL;
      wb_dot_q    <= ex_dec_q.dot;
      wb_product_q <= mul_product;
      wb_dot_sum_q <= ex_dot_sum;
      wb_rd_q     <= ex_dec_q.rd;
      wb_funct3_q <= ex_dec_q.funct3;
      wb_result_q <= ex_result;
      wb_addr_q   <= ex_addr;
      wb_pc_q     <= ex_pc_q[31:2];
    end
  end

  always_comb begin
    logic [31:0] shifted;
    shifted = dbus_rdata_i >> {wb_addr_q[1:0], 3'b000};
    unique case (wb_funct3_q)
      3'b000:  wb_load_data = {{24{shifted[7]}}, shifted[7:0]};
      3'b001:  wb_load_data = {{16{shifted[15]}}, shifted[15:0]};
      3'b100:  wb_load_data = {24'b0, shifted[7:0]};
      3'b101:  wb_load_data = {16'b0, shifted[15:0]};
      default: wb_load_data = shifted;
    endcase
  end
  always_comb begin
    if (wb_load_q)     wb_result = wb_load_data;
    else if (wb_dot_q) wb_result = wb_dot_result;
    else if (!wb_mul_q) wb_result = wb_result_q;
    else               wb_result = (wb_funct3_q[1:0] == 2'b00) ? wb_product_q[31:0] : wb_product_q[63:32];
  end
  assign wb_dot_result = wb_result_q + wb_dot_sum_q;
  assign wb_trap   = wb_valid_q && (wb_load_q || wb_store_q) && dbus_rvalid_i && dbus_err_i;

  // ======================================================================
  // Trap selection: the older instruction (WB) wins.
  assign trap       = wb_trap || ex_trap;
  assign trap_irq   = !wb_trap && ex_irq_take;
  always_comb begin
    if (wb_trap) begin
      trap_cause = wb_store_q ? cpu_pkg::EXC_STORE_FAULT : cpu_pkg::EXC_LOAD_FAULT;
      trap_pc    = wb_pc_q;
      trap_tval  = wb_addr_q;
    end else begin
      trap_cause = ex_irq_take ? irq_cause : ex_cause;
      trap_pc    = ex_pc_q[31:2];
      trap_tval  = ex_irq_take ? '0 : ex_tval;
    end
  end

endmodule : cpu_core
