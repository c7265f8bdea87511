// RV32IM + Zicsr instruction decoder, with the packed dot products
// (cpu_dot) and the exponential (cpu_exp2) in custom-0. Anything not in
// those extensions (or a malformed encoding of them) is flagged illegal.
module cpu_decoder #(
  parameter bit DotProducts = 1'b1
) (
  input  logic [31:0] instr_i,
  output cpu_pkg::decoded_t    dec_o,
  // Which register fields are real sources (the load-use interlock must not
  // stall on immediate bits that happen to match).
  output logic                 rs1_used_o,
  output logic                 rs2_used_o
);

  logic [6:0] opcode;
  logic [2:0] funct3;
  logic [6:0] funct7;
  logic [4:0] rd, rs1;
  logic [31:0] imm_i, imm_s, imm_b, imm_u, imm_j;

  assign opcode = instr_i[6:0];
  assign funct3 = instr_i[14:12];
  assign funct7 = instr_i[31:25];
  assign rd     = instr_i[11:7];
  assign rs1    = instr_i[19:15];

  assign imm_i = {{21{instr_i[31]}}, instr_i[30:20]};
  assign imm_s = {{21{instr_i[31]}}, instr_i[30:25], instr_i[11:7]};
  assign imm_b = cpu_pkg::imm_b(instr_i);
  assign imm_u = {instr_i[31:12], 12'b0};
  assign imm_j = cpu_pkg::imm_j(instr_i);

  always_comb begin
    dec_o            = '0;
    dec_o.alu_op     = cpu_pkg::ALU_ADD;
    dec_o.op_a_sel   = cpu_pkg::OPA_RS1;
    dec_o.result_sel = cpu_pkg::RES_ALU;
    dec_o.csr_op     = cpu_pkg::CSR_NONE;
    dec_o.rd         = rd;
    dec_o.rs3        = rd;
    dec_o.rs1        = rs1;
    dec_o.rs2        = instr_i[24:20];
    dec_o.funct3     = funct3;

    unique case (opcode)
      cpu_pkg::OPC_LUI: begin
        dec_o.op_a_sel = cpu_pkg::OPA_ZERO;
        dec_o.op_b_imm = 1'b1;
        dec_o.imm      = imm_u;
        dec_o.rf_we    = 1'b1;
      end
      cpu_pkg::OPC_AUIPC: begin
        dec_o.op_a_sel = cpu_pkg::OPA_PC;
        dec_o.op_b_imm = 1'b1;
        dec_o.imm      = imm_u;
        dec_o.rf_we    = 1'b1;
      end
      cpu_pkg::OPC_JAL: begin
        dec_o.jal        = 1'b1;
        dec_o.imm        = imm_j;
        dec_o.result_sel = cpu_pkg::RES_PC4;
        dec_o.rf_we      = 1'b1;
      end
      cpu_pkg::OPC_JALR: begin
        dec_o.jalr       = 1'b1;
        dec_o.op_b_imm   = 1'b1;  // the ALU adds rs1 + imm for the target
        dec_o.imm        = imm_i;
        dec_o.result_sel = cpu_pkg::RES_PC4;
        dec_o.rf_we      = 1'b1;
        dec_o.illegal    = (funct3 != 3'b000);
      end
      cpu_pkg::OPC_BRANCH: begin
        dec_o.branch  = 1'b1;
        dec_o.alu_op  = cpu_pkg::ALU_SUB;  // flags for the condition
        dec_o.imm     = imm_b;
        dec_o.illegal = (funct3 == 3'b010) || (funct3 == 3'b011);
      end
      cpu_pkg::OPC_LOAD: begin
        dec_o.load       = 1'b1;
        dec_o.op_b_imm   = 1'b1;
        dec_o.imm        = imm_i;
        dec_o.result_sel = cpu_pkg::RES_LOAD;
        dec_o.rf_we      = 1'b1;
        dec_o.illegal    = (funct3 == 3'b011) || (funct3 == 3'b110) || (funct3 == 3'b111);
      end
      cpu_pkg::OPC_STORE: begin
        dec_o.store    = 1'b1;
        dec_o.op_b_imm = 1'b1;
        dec_o.imm      = imm_s;
        dec_o.illegal  = (funct3 > 3'b010);
      end
      cpu_pkg::OPC_OP_IMM: begin
        dec_o.op_b_imm = 1'b1;
        dec_o.imm      = imm_i;
        dec_o.rf_we    = 1'b1;
        unique case (funct3)
          3'b000: dec_o.alu_op = cpu_pkg::ALU_ADD;
          3'b010: dec_o.alu_op = cpu_pkg::ALU_SLT;
          3'b011: dec_o.alu_op = cpu_pkg::ALU_SLTU;
          3'b100: dec_o.alu_op = cpu_pkg::ALU_XOR;
          3'b110: dec_o.alu_op = cpu_pkg::ALU_OR;
          3'b111: dec_o.alu_op = cpu_pkg::ALU_AND;
          3'b001: begin
            dec_o.alu_op  = cpu_pkg::ALU_SLL;
            dec_o.illegal = (funct7 != 7'b0000000);
          end
          3'b101: begin
            dec_o.alu_op  = funct7[5] ? cpu_pkg::ALU_SRA : cpu_pkg::ALU_SRL;
            dec_o.illegal = (funct7 != 7'b0000000) && (funct7 != 7'b0100000);
          end
          default: ;
        endcase
      end
      cpu_pkg::OPC_OP: begin
        dec_o.rf_we = 1'b1;
        if (funct7 == 7'b0000001) begin
          dec_o.div        = funct3[2];
          dec_o.result_sel = funct3[2] ? cpu_pkg::RES_DIV : cpu_pkg::RES_MUL;
        end else begin
          dec_o.illegal = (funct7 != 7'b0000000) &&
                          !(funct7 == 7'b0100000 && (funct3 == 3'b000 || funct3 == 3'b101));
          unique case (funct3)
            3'b000: dec_o.alu_op = funct7[5] ? cpu_pkg::ALU_SUB : cpu_pkg::ALU_ADD;
            3'b001: dec_o.alu_op = cpu_pkg::ALU_SLL;
            3'b010: dec_o.alu_op = cpu_pkg::ALU_SLT;
            3'b011: dec_o.alu_op = cpu_pkg::ALU_SLTU;
            3'b100: dec_o.alu_op = cpu_pkg::ALU_XOR;
            3'b101: dec_o.alu_op = funct7[5] ? cpu_pkg::ALU_SRA : cpu_pkg::ALU_SRL;
            3'b110: dec_o.alu_op = cpu_pkg::ALU_OR;
            3'b111: dec_o.alu_op = cpu_pkg::ALU_AND;
            default: ;
          endcase
        end
      end
      cpu_pkg::OPC_CUSTOM0: begin
        // funct7 bit 0 (Z): the sum starts from zero instead of rd. ucx.exp2
        // runs as a dot product from zero whose rs2 (x0) makes the products 0.
        dec_o.dot        = DotProducts;
        dec_o.exp2       = DotProducts && funct3 == cpu_pkg::EXP2;
        dec_o.rs3        = funct7[0] || funct3 == cpu_pkg::EXP2 ? 5'd0 : rd;
        dec_o.result_sel = cpu_pkg::RES_DOT;
        dec_o.rf_we      = 1'b1;
        if (funct3 == cpu_pkg::EXP2) dec_o.illegal = !DotProducts || funct7 != 7'b0 || instr_i[24:20] != 5'd0;
        else dec_o.illegal = !DotProducts || (funct7[6:1] != 6'b0) ||
                             !(funct3 == cpu_pkg::DOT_4 || funct3 == cpu_pkg::DOT_LO || funct3 == cpu_pkg::DOT_HI);
      end
      cpu_pkg::OPC_MISC_MEM: begin
        // FENCE orders nothing here (one in-order hart; the data cache is
        // the only one and every access goes through it); FENCE.I refetches
        // everything after it. Zicbom's cbo.inval/clean/flush go out as a
        // store of no bytes at rs1 (any byte of the line: size byte, never
        // misaligned) with the operation as data; only the data cache acts.
        unique case (funct3)
          3'b000: ;
          3'b001: dec_o.fence_i = 1'b1;
          3'b010: begin
            dec_o.cbo      = 1'b1;
            dec_o.cbo_op   = instr_i[21:20];
            dec_o.store    = 1'b1;
            dec_o.op_b_imm = 1'b1;
            dec_o.funct3   = 3'b000;
            dec_o.illegal  = rd != 5'd0 || instr_i[31:22] != 10'd0 || instr_i[21:20] == 2'b11;
          end
          default: dec_o.illegal = 1'b1;
        endcase
      end
      cpu_pkg::OPC_SYSTEM: begin
        if (funct3 == 3'b000) begin
          if (rd != 5'd0 || rs1 != 5'd0) begin
            dec_o.illegal = 1'b1;
          end else begin
            unique case (instr_i[31:20])
              12'h000: dec_o.ecall  = 1'b1;
              12'h001: dec_o.ebreak = 1'b1;
              12'h302: dec_o.mret   = 1'b1;
              12'h105: dec_o.wfi    = 1'b1;
              default: dec_o.illegal = 1'b1;
            endcase
          end
        end else if (funct3 == 3'b100) begin
          dec_o.illegal = 1'b1;
        end else begin
          dec_o.result_sel = cpu_pkg::RES_CSR;
          dec_o.rf_we      = 1'b1;
          dec_o.imm        = {27'b0, rs1};  // uimm of csrr*i
          unique case (funct3[1:0])
            2'b01:   dec_o.csr_op = cpu_pkg::CSR_WRITE;
            2'b10:   dec_o.csr_op = cpu_pkg::CSR_SET;
            default: dec_o.csr_op = cpu_pkg::CSR_CLEAR;
          endcase
          dec_o.csr_write = (funct3[1:0] == 2'b01) || (rs1 != 5'd0);
        end
      end
      default: dec_o.illegal = 1'b1;
    endcase

    // An illegal instruction traps in EX, which squashes all of its effects,
    // so the other fields need no clearing here.
    if (instr_i[1:0] != 2'b11) dec_o.illegal = 1'b1;
  end

  always_comb begin
    rs1_used_o = 1'b0;
    rs2_used_o = 1'b0;
    unique case (opcode)
      cpu_pkg::OPC_JALR, cpu_pkg::OPC_LOAD, cpu_pkg::OPC_OP_IMM: rs1_used_o = 1'b1;
      cpu_pkg::OPC_BRANCH, cpu_pkg::OPC_STORE, cpu_pkg::OPC_OP, cpu_pkg::OPC_CUSTOM0: begin
        rs1_used_o = 1'b1;
        rs2_used_o = 1'b1;
      end
      cpu_pkg::OPC_SYSTEM: rs1_used_o = !funct3[2];  // csrrw/s/c read rs1
      cpu_pkg::OPC_MISC_MEM: rs1_used_o = funct3 == 3'b010;  // cbo.*
      default: ;
    endcase
  end

endmodule : cpu_decoder
