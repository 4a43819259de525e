// Command describe-oracle runs istioctl's own `x describe` (istio.io/istio/istioctl/pkg/describe)
// over YAML files: the files are loaded into istiod's test discovery server as xds-oracle loads
// them (internal/harness), the Envoy config dump of every pod that runs a proxy is generated
// there, and describe's command runs against a fake istioctl context (cli.NewFakeContext, as
// Istio's describe_test.go runs it) whose Kubernetes and Istio clients hold the files' objects
// and whose proxies answer /config_dump with those dumps.
//
// Usage:
//
//	describe-oracle [--mesh FILE] [--istio-version V] [--log-level L] [--json] FILE... -- ARGS [-- ARGS ...]
//
// ARGS are describe's arguments, e.g. `pod NAME[.NS] [-n NS] [--ignoreUnmeshed]` or `service NAME`;
// -n/--namespace is istioctl's root flag and becomes the context's namespace (default "default",
// a kubeconfig context's usual namespace). With one ARGS and no --json, istioctl's stdout is
// printed as it is, its error on stderr as cobra prints it ("Error: ..."), and the exit code is
// 1 on an error. With --json, one JSON array: {"args", "stdout", "stderr", "exit"} for each ARGS.
//
// What the fake cluster holds:
//   - the Kubernetes objects as xds-oracle gives them to istiod (a Pod without status is Running
//     and Ready, Service ports have the API server's defaults), and container ports without a
//     protocol get TCP (the API server's default; describe prints any other protocol);
//   - the DestinationRules, VirtualServices, Gateways and PeerAuthentications (what describe
//     reads) in their networking/security v1 form, as the API server serves any stored version;
//     objects Istio's validation refuses are left out (the webhook would not admit them);
//   - the mesh ConfigMap istio-system/istio (and istio-REV for each revision of a pod) when the
//     files have none, holding the mesh config the workspace uses (istiod writes it on install);
//   - a config dump for every pod with a proxy: a router for pods labelled istio=ingressgateway
//     or istio=egressgateway or named by a Gateway API gateway label, or whose istio-proxy
//     container runs `proxy router`; a sidecar for any other pod with an istio-proxy container.
//     A pod without one has no dump: describe fails reading its Envoy, as against a cluster.
//     The dump holds the dynamic clusters, listeners and routes as Envoy's /config_dump writes
//     them (admin ConfigDump JSON), in the order istiod generates them.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	admin "github.com/envoyproxy/go-control-plane/envoy/admin/v3"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/known/anypb"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kuberuntime "k8s.io/apimachinery/pkg/runtime"

	"istio.io/istio/istioctl/pkg/cli"
	"istio.io/istio/istioctl/pkg/describe"
	kubelib "istio.io/istio/pkg/kube"
	"istio.io/istio/pkg/kube/inject"
	"istio.io/istio/pkg/util/protomarshal"

	"meshworkbench.dev/oracle/internal/harness"
)

const istioNamespace = "istio-system"

// describedKinds are the Istio kinds describe reads, by group: loaded in their v1 form.
var describedKinds = map[string]map[string]bool{
	"networking.istio.io": {"DestinationRule": true, "VirtualService": true, "Gateway": true},
	"security.istio.io":   {"PeerAuthentication": true},
}

// proxyType is the proxy a pod runs: "router", "sidecar", or "" for none.
func proxyType(p *corev1.Pod) string {
	switch p.Labels["istio"] {
	case "ingressgateway", "egressgateway":
		return "router"
	}
	if p.Labels["gateway.networking.k8s.io/gateway-name"] != "" {
		return "router"
	}
	c := inject.FindSidecar(p)
	if c == nil {
		return ""
	}
	for i, a := range c.Args {
		if a == "router" && i > 0 && c.Args[i-1] == "proxy" {
			return "router"
		}
	}
	return "sidecar"
}

func toAny(m proto.Message) *anypb.Any {
	a, err := anypb.New(m)
	if err != nil {
		panic(err)
	}
	return a
}

// configDump is the admin /config_dump JSON of one proxy's dynamic resources.
func configDump(r *harness.Resources) ([]byte, error) {
	cds := &admin.ClustersConfigDump{}
	for _, c := range r.Clusters {
		cds.DynamicActiveClusters = append(cds.DynamicActiveClusters, &admin.ClustersConfigDump_DynamicCluster{Cluster: toAny(c)})
	}
	lds := &admin.ListenersConfigDump{}
	for _, l := range r.Listeners {
		lds.DynamicListeners = append(lds.DynamicListeners, &admin.ListenersConfigDump_DynamicListener{
			Name:        l.GetName(),
			ActiveState: &admin.ListenersConfigDump_DynamicListenerState{Listener: toAny(l)},
		})
	}
	rds := &admin.RoutesConfigDump{}
	for _, rc := range r.Routes {
		rds.DynamicRouteConfigs = append(rds.DynamicRouteConfigs, &admin.RoutesConfigDump_DynamicRouteConfig{RouteConfig: toAny(rc)})
	}
	cd := &admin.ConfigDump{Configs: []*anypb.Any{toAny(cds), toAny(lds), toAny(rds)}}
	return protojson.MarshalOptions{Resolver: protoregistry.GlobalTypes}.Marshal(cd)
}

// clusterObjects are the objects of the fake cluster (see the package comment).
// assumeRunning gives a pod written without a status what our model assumes of it: Running,
// every container ready. A cluster always reports a status; istioctl's describe service reads
// the proxy's readiness from it, and without one finds "no container istio-proxy".
func assumeRunning(p *corev1.Pod) {
	if p.Status.Phase == "" {
		p.Status.Phase = corev1.PodRunning
	}
	if len(p.Status.ContainerStatuses) == 0 && len(p.Status.InitContainerStatuses) == 0 {
		for _, c := range p.Spec.Containers {
			p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, corev1.ContainerStatus{Name: c.Name, Ready: true})
		}
		for _, c := range p.Spec.InitContainers {
			p.Status.InitContainerStatuses = append(p.Status.InitContainerStatuses, corev1.ContainerStatus{Name: c.Name, Ready: true})
		}
	}
}

func clusterObjects(w *harness.Workspace) ([]kuberuntime.Object, error) {
	var out []kuberuntime.Object
	configMaps := map[string]bool{}
	revisions := map[string]bool{"": true}
	for _, o := range w.Kube {
		switch v := o.(type) {
		case *corev1.Pod:
			p := v.DeepCopy()
			for _, cs := range [][]corev1.Container{p.Spec.Containers, p.Spec.InitContainers} {
				for i := range cs {
					for j := range cs[i].Ports {
						if cs[i].Ports[j].Protocol == "" {
							cs[i].Ports[j].Protocol = corev1.ProtocolTCP
						}
					}
				}
			}
			assumeRunning(p)
			revisions[describe.GetRevisionFromPodAnnotation(p.Annotations)] = true
			out = append(out, p)
			continue
		case *corev1.ConfigMap:
			configMaps[v.Namespace+"/"+v.Name] = true
		}
		out = append(out, o)
	}
	meshYAML, err := protomarshal.ToYAML(w.Mesh)
	if err != nil {
		return nil, err
	}
	for rev := range revisions {
		name := "istio"
		if rev != "" && rev != "default" {
			name = "istio-" + rev
		}
		if configMaps[istioNamespace+"/"+name] {
			continue
		}
		out = append(out, &corev1.ConfigMap{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: istioNamespace},
			Data:       map[string]string{"mesh": meshYAML},
		})
	}
	rejected := map[string]bool{}
	for _, r := range w.Rejected {
		rejected[r.Kind+"/"+r.Namespace+"/"+r.Name] = true
	}
	decode := kubelib.IstioCodec.UniversalDeserializer().Decode
	for _, o := range w.Objects {
		group, _, _ := strings.Cut(o.APIVersion, "/")
		if !describedKinds[group][o.Kind] || rejected[o.Kind+"/"+o.Namespace+"/"+o.Name] {
			continue
		}
		var raw map[string]any
		if err := json.Unmarshal(o.JSON, &raw); err != nil {
			return nil, err
		}
		raw["apiVersion"] = group + "/v1"
		meta, _ := raw["metadata"].(map[string]any)
		if meta == nil {
			meta = map[string]any{}
			raw["metadata"] = meta
		}
		meta["namespace"] = o.Namespace
		js, err := json.Marshal(raw)
		if err != nil {
			return nil, err
		}
		obj, _, err := decode(js, nil, nil)
		if err != nil {
			fmt.Fprintf(os.Stderr, "describe-oracle: skipped %s %s/%s: %v\n", o.Kind, o.Namespace, o.Name, err)
			continue
		}
		out = append(out, obj)
	}
	return out, nil
}

// dumps are the config dumps of every pod with a proxy, by pod name (as the fake client keys them).
func dumps(w *harness.Workspace, istioVersion string) map[string][]byte {
	out := map[string][]byte{}
	for _, p := range w.Pods {
		typ := proxyType(p)
		if typ == "" {
			continue
		}
		r, err := w.Resources(harness.ProxyRequest{Name: p.Name + "." + p.Namespace, Type: typ}, istioVersion)
		if err == nil {
			var js []byte
			if js, err = configDump(r); err == nil {
				out[p.Name] = js
				continue
			}
		}
		fmt.Fprintf(os.Stderr, "describe-oracle: no config dump for %s %s.%s: %v\n", typ, p.Name, p.Namespace, err)
	}
	return out
}

type runResult struct {
	Args   []string `json:"args"`
	Stdout string   `json:"stdout"`
	Stderr string   `json:"stderr"`
	Exit   int      `json:"exit"`
}

// splitNamespace takes istioctl's root -n/--namespace out of describe's arguments.
func splitNamespace(args []string) (string, []string) {
	ns := ""
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-n" || a == "--namespace") && i+1 < len(args):
			ns = args[i+1]
			i++
		case strings.HasPrefix(a, "--namespace="):
			ns = strings.TrimPrefix(a, "--namespace=")
		case strings.HasPrefix(a, "-n") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			ns = strings.TrimPrefix(strings.TrimPrefix(a, "-n"), "=")
		default:
			rest = append(rest, a)
		}
	}
	if ns == "" {
		ns = "default"
	}
	return ns, rest
}

// run executes describe once. Everything describe writes to stdout, through cobra or straight to
// os.Stdout (printPod's "Pod is not Running" line), is captured in order.
func run(args []string, objects []kuberuntime.Object, results map[string][]byte) runResult {
	ns, rest := splitNamespace(args)
	ctx := cli.NewFakeContext(&cli.NewFakeContextOption{
		Namespace:      ns,
		IstioNamespace: istioNamespace,
		Results:        results,
		Objects:        objects,
	})
	cmd := describe.Cmd(ctx)
	cmd.SilenceUsage = true // as istioctl's root command
	cmd.SetArgs(rest)
	var stderr bytes.Buffer
	cmd.SetErr(&stderr)

	r, pw, err := os.Pipe()
	if err != nil {
		return runResult{Args: args, Stderr: err.Error(), Exit: 1}
	}
	stdout := os.Stdout
	os.Stdout = pw
	cmd.SetOut(pw)
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		got <- b
	}()
	execErr := cmd.Execute()
	os.Stdout = stdout
	_ = pw.Close()
	out := <-got
	_ = r.Close()
	res := runResult{Args: args, Stdout: string(out), Stderr: stderr.String()}
	if execErr != nil {
		res.Exit = 1
	}
	return res
}

func main() {
	meshFlag := flag.String("mesh", "", "mesh config file (MeshConfig YAML, or the istio ConfigMap)")
	versionFlag := flag.String("istio-version", "1.30.0", "ISTIO_VERSION in the proxies' metadata")
	logFlag := flag.String("log-level", "none", "Istio's log level on stderr (none, error, warn, info, debug)")
	jsonFlag := flag.Bool("json", false, "print every run as JSON")
	flag.Parse()
	f := &harness.Failer{Prog: "describe-oracle"}
	defer f.RunCleanups()
	var groups [][]string
	cur := []string{}
	for _, a := range flag.Args() {
		if a == "--" {
			groups = append(groups, cur)
			cur = []string{}
			continue
		}
		cur = append(cur, a)
	}
	groups = append(groups, cur)
	if len(groups) < 2 || len(groups[0]) == 0 {
		fmt.Fprintln(os.Stderr, "usage: describe-oracle [--mesh FILE] [--json] FILE... -- pod NAME[.NS] [-n NS] [-- ARGS ...]")
		os.Exit(64)
	}
	if err := harness.ConfigureLog(*logFlag); err != nil {
		f.Exit(err.Error())
	}
	runtime.GOMAXPROCS(2)

	w := harness.LoadFiles(f, groups[0], *meshFlag)
	objects, err := clusterObjects(w)
	if err != nil {
		f.Exit(err.Error())
	}
	results := dumps(w, *versionFlag)

	var all []runResult
	for _, args := range groups[1:] {
		all = append(all, run(args, objects, results))
	}
	if *jsonFlag {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", " ")
		if err := enc.Encode(all); err != nil {
			f.Exit(err.Error())
		}
		return
	}
	exit := 0
	for _, r := range all {
		fmt.Fprint(os.Stdout, r.Stdout)
		fmt.Fprint(os.Stderr, r.Stderr)
		if r.Exit != 0 {
			exit = r.Exit
		}
	}
	f.RunCleanups()
	os.Exit(exit)
}
