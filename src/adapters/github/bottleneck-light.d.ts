// The throttling plugin limits requests with Bottleneck's light build (no Redis clustering); its
// package types only the full build, which has the same classes.
declare module "bottleneck/light.js" {
  import Bottleneck from "bottleneck";
  export default Bottleneck;
}
