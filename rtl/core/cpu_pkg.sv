// Types and constants shared by the RV32IM core's units.
package cpu_pkg;

  typedef enum logic [6:0] {
    OPC_LOAD     = 7'b0000011,
    OPC_CUSTOM0  = 7'b0001011,  // the packed dot products (cpu_dot)
    OPC_MISC_MEM = 7'b0001111,
    OPC_OP_IMM   = 7'b0010011,
    OPC_AUIPC    = 7'b0010111,
    OPC_STORE    = 7'b0100011,
    OPC_OP       = 7'b0110011,
    OPC_LUI      = 7'b0110111,
    OPC_BRANCH   = 7'b1100011,
    OPC_JALR     = 7'b1100111,
    OPC_JAL      = 7'b1101111,
    OPC_SYSTEM   = 7'b1110011
  } opcode_e;

  typedef enum logic [3:0] {
    ALU_ADD, ALU_SUB, ALU_SLL, ALU_SLT, ALU_SLTU, ALU_XOR, ALU_SRL, ALU_SRA,
    ALU_OR, ALU_AND
  } alu_op_e;

  typedef enum logic [1:0] { OPA_RS1, OPA_PC, OPA_ZERO } op_a_sel_e;

  // What the EX stage writes back to rd.
  typedef enum logic [2:0] { RES_ALU, RES_PC4, RES_MUL, RES_DIV, RES_CSR, RES_LOAD, RES_DOT } result_sel_e;

  // custom-0's funct3: the packed dot products (funct7 0, or 1 from zero)
  // and the exponential (funct7 0, rs2 x0).
  localparam logic [2:0] DOT_4  = 3'b000;
  localparam logic [2:0] DOT_LO = 3'b001;
  localparam logic [2:0] DOT_HI = 3'b010;
  localparam logic [2:0] EXP2   = 3'b011;

  typedef enum logic [1:0] { CSR_NONE, CSR_WRITE, CSR_SET, CSR_CLEAR } csr_op_e;

  // Where an operand in EX comes from: its register read, or WB's result
  // register, or one half of WB's product register, or (a dot product's
  // accumulator only) the sum WB completes for the dot product there.
  typedef enum logic [2:0] { FWD_NONE, FWD_RESULT, FWD_PRODUCT_LO, FWD_PRODUCT_HI, FWD_DOT } fwd_sel_e;

  // Exception causes (mcause with interrupt bit clear).
  localparam logic [4:0] EXC_INSTR_MISALIGNED = 5'd0;
  localparam logic [4:0] EXC_INSTR_FAULT      = 5'd1;
  localparam logic [4:0] EXC_ILLEGAL          = 5'd2;
  localparam logic [4:0] EXC_BREAKPOINT       = 5'd3;
  localparam logic [4:0] EXC_LOAD_MISALIGNED  = 5'd4;
  localparam logic [4:0] EXC_LOAD_FAULT       = 5'd5;
  localparam logic [4:0] EXC_STORE_MISALIGNED = 5'd6;
  localparam logic [4:0] EXC_STORE_FAULT      = 5'd7;
  localparam logic [4:0] EXC_ECALL_M          = 5'd11;

  // Interrupt causes (mcause with interrupt bit set) = their mip/mie bit.
  localparam logic [4:0] IRQ_TIMER    = 5'd7;
  localparam logic [4:0] IRQ_EXTERNAL = 5'd11;

  typedef enum logic [11:0] {
    CSR_MSTATUS    = 12'h300,
    CSR_MISA       = 12'h301,
    CSR_MIE        = 12'h304,
    CSR_MTVEC      = 12'h305,
    CSR_MSTATUSH   = 12'h310,
    CSR_MSCRATCH   = 12'h340,
    CSR_MEPC       = 12'h341,
    CSR_MCAUSE     = 12'h342,
    CSR_MTVAL      = 12'h343,
    CSR_MIP        = 12'h344,
    CSR_TSELECT    = 12'h7A0,
    CSR_UCXCFG     = 12'h7C0,  // custom: bit 0 enables the packed dot products
    CSR_TDATA1     = 12'h7A1,
    CSR_TDATA2     = 12'h7A2,
    CSR_MCYCLE     = 12'hB00,
    CSR_MINSTRET   = 12'hB02,
    CSR_MCYCLEH    = 12'hB80,
    CSR_MINSTRETH  = 12'hB82,
    CSR_CYCLE      = 12'hC00,
    CSR_TIME       = 12'hC01,
    CSR_INSTRET    = 12'hC02,
    CSR_CYCLEH     = 12'hC80,
    CSR_TIMEH      = 12'hC81,
    CSR_INSTRETH   = 12'hC82,
    CSR_MVENDORID  = 12'hF11,
    CSR_MARCHID    = 12'hF12,
    CSR_MIMPID     = 12'hF13,
    CSR_MHARTID    = 12'hF14,
    CSR_MCONFIGPTR = 12'hF15
  } csr_addr_e;

  // Decoded instruction, carried from ID to EX.
  typedef struct packed {
    alu_op_e     alu_op;
    op_a_sel_e   op_a_sel;
    logic        op_b_imm;     // operand b is the immediate, not rs2
    logic [31:0] imm;
    result_sel_e result_sel;
    logic        rf_we;
    logic [4:0]  rd;
    logic [4:0]  rs1;
    logic [4:0]  rs2;
    logic        load;
    logic        store;
    logic [2:0]  funct3;       // branch condition, access size, mul/div op
    logic        branch;
    logic        jal;
    logic        jalr;
    logic        div;
    logic        dot;          // custom-0: a late result, WB's sum; its accumulator (rs3) is a source too
    logic        exp2;         // ucx.exp2 (dot too: the accumulator is x0, WB adds its rounding)
    logic [4:0]  rs3;          // a dot product's accumulator: rd, or x0 for the forms from zero
    csr_op_e     csr_op;
    logic        csr_write;    // the CSR op writes (not csrrs/c with x0 / zero uimm)
    logic        ecall;
    logic        ebreak;
    logic        mret;
    logic        wfi;
    logic        fence_i;
    logic        cbo;          // Zicbom cbo.*: a store of no bytes (be 0) whose data is cbo_op
    logic [1:0]  cbo_op;       // 0 inval, 1 clean, 2 flush (the instruction's imm)
    logic        illegal;
  } decoded_t;

  // Immediates of the control-transfer formats, shared by the decoder and
  // ID's early target adders. They take the whole word and use some bits.
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [31:0] imm_b(logic [31:0] instr);
    imm_b = {{20{instr[31]}}, instr[7], instr[30:25], instr[11:8], 1'b0};
  endfunction

  function automatic logic [31:0] imm_j(logic [31:0] instr);
    imm_j = {{12{instr[31]}}, instr[19:12], instr[20], instr[30:21], 1'b0};
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

endpackage : cpu_pkg
