// The CEL library (@bufbuild/cel, with its strings extension), behind one module. Loading it
// costs about as much as the rest of the CLI's start (it boots @bufbuild/protobuf's registry),
// and Istio's CRD rules are nearly all evaluated natively (cel.ts), so a run seldom needs it.
// cel.ts reaches it through these namespaces, and only at call time; the CLI bundle
// (scripts/build-cli.mjs) replaces this module with one that loads the library on first use,
// and the browser worker's build with src/worker/celLib.lazy.ts, which the worker loads before a run
// that needs it.
import * as cel from '@bufbuild/cel';
import * as celExt from '@bufbuild/cel/ext';

export { cel, celExt };
