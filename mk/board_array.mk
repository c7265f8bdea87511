# The boards' UniCAIM array (ULX3S, Arty A7-35T), defined once: stories260K's
# cache of 128 tokens, 20 banks (5 layers x 4 KV heads) of 128 slots with one
# 3-bit cell per key component (8), 2 lanes. The board builds, the simulator
# with this array, its co-simulation and its Yosys counts all take it from here.
BOARD_UCM_BANKS := 20
BOARD_UCM_SLOTS := 128
BOARD_UCM_DIM   := 8
BOARD_UCM_LANES := 2
# The same as soc_top / board-wrapper parameters, for Verilator and Yosys.
BOARD_UCM_SHAPE_G  := -GUcmSlots=$(BOARD_UCM_SLOTS) -GUcmDim=$(BOARD_UCM_DIM) -GUcmLanes=$(BOARD_UCM_LANES)
BOARD_UCM_SHAPE_CH := -set UcmSlots $(BOARD_UCM_SLOTS) -set UcmDim $(BOARD_UCM_DIM) -set UcmLanes $(BOARD_UCM_LANES)
