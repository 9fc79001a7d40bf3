/** The check run the gate posts its verdict as; branch protection requires it by this name. */
export const GATE_CHECK_NAME = "bosun/gate";
