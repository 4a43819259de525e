// Package harness loads a workspace of YAML files into istiod's test discovery server
// (istio.io/istio/pilot/test/xds, the harness of Istio's pilot/pkg/networking/core tests) and
// generates the xDS resources of one of its proxies as istiod does: the shared core of
// xds-oracle and describe-oracle (see cmd/xds-oracle for what a live cluster would add that
// is added here).
package harness

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/known/structpb"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kuberuntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	k8syaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	cluster "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	core "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	endpoint "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listener "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	route "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"

	meshconfig "istio.io/api/mesh/v1alpha1"
	"istio.io/istio/pilot/pkg/config/kube/crd"
	"istio.io/istio/pilot/pkg/model"
	labelutil "istio.io/istio/pilot/pkg/serviceregistry/util/label"
	"istio.io/istio/pilot/test/xds"
	"istio.io/istio/pkg/config"
	"istio.io/istio/pkg/config/mesh"
	kubelib "istio.io/istio/pkg/kube"
	"istio.io/istio/pkg/log"
)

// ---- test.Failer: the harness reports through it -------------------------------------------

// Failer implements Istio's test.Failer for a command: a Failure is printed on stderr and the
// process exits 1; cleanups run in reverse order at the end.
type Failer struct {
	cleanups []func()
	// Serve: a failure panics with a Failure (recovered by the request) instead of exiting.
	Serve bool
	// Prog prefixes the messages on stderr (the command's name).
	Prog string
}

// Failure is what a Failer panics with in Serve mode.
type Failure struct{ Msg string }

func (f *Failer) Fail()             { f.FailNow() }
func (f *Failer) FailNow()          { f.Exit("harness failure") }
func (f *Failer) Helper()           {}
func (f *Failer) Skip(args ...any)  { f.Exit("harness skipped: " + fmt.Sprint(args...)) }
func (f *Failer) Fatal(args ...any) { f.Exit(fmt.Sprint(args...)) }
func (f *Failer) Fatalf(format string, args ...any) {
	f.Exit(fmt.Sprintf(format, args...))
}
func (f *Failer) Log(args ...any)                 { fmt.Fprintln(os.Stderr, args...) }
func (f *Failer) Logf(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
func (f *Failer) Cleanup(fn func())               { f.cleanups = append(f.cleanups, fn) }
func (f *Failer) TempDir() string {
	d, err := os.MkdirTemp("", f.prog()+"-")
	if err != nil {
		f.Exit(err.Error())
	}
	f.Cleanup(func() { _ = os.RemoveAll(d) })
	return d
}

// Exit reports a failure: a panic with a Failure in Serve mode, else a message and exit 1.
func (f *Failer) Exit(msg string) {
	if f.Serve {
		panic(Failure{Msg: msg})
	}
	fmt.Fprintln(os.Stderr, f.prog()+": "+msg)
	os.Exit(1)
}

func (f *Failer) prog() string {
	if f.Prog == "" {
		return "oracle"
	}
	return f.Prog
}

// RunCleanups runs the cleanups registered so far, last first, and forgets them.
func (f *Failer) RunCleanups() {
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
	f.cleanups = nil
}

// ---- input -------------------------------------------------------------------------------

// Object is one document of the files: its identity and its JSON.
type Object struct {
	APIVersion, Kind, Namespace, Name string
	JSON                              []byte
}

func (o Object) key() string { return o.APIVersion + "/" + o.Kind + "/" + o.Namespace + "/" + o.Name }

func isIstioConfig(apiVersion string) bool {
	group := apiVersion
	if i := strings.Index(group, "/"); i >= 0 {
		group = group[:i]
	} else {
		group = ""
	}
	return strings.HasSuffix(group, ".istio.io")
}

// InputFile is one file of a workspace: its name (for messages) and its text.
type InputFile struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// ReadFiles reads the files named on the command line.
func ReadFiles(paths []string) ([]InputFile, error) {
	out := make([]InputFile, 0, len(paths))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		out = append(out, InputFile{Name: p, Text: string(data)})
	}
	return out, nil
}

// ReadMeshFile reads a --mesh file: "" when none is named, and a file holding only
// whitespace as " " (Istio's defaults, not the workspace's ConfigMap).
func ReadMeshFile(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	text := string(data)
	if strings.TrimSpace(text) == "" {
		return " ", nil
	}
	return text, nil
}

// LoadFiles reads the named files and the --mesh file (ReadMeshFile) and loads them (Load),
// exiting through f on a read error: the start of every oracle program.
func LoadFiles(f *Failer, paths []string, meshPath string) *Workspace {
	files, err := ReadFiles(paths)
	if err != nil {
		f.Exit(err.Error())
	}
	meshText, err := ReadMeshFile(meshPath)
	if err != nil {
		f.Exit(err.Error())
	}
	return Load(f, files, meshText)
}

// readObjects reads every document of every file (Lists expanded), later duplicates winning.
func readObjects(files []InputFile) ([]Object, error) {
	var out []Object
	index := map[string]int{}
	add := func(raw map[string]any) error {
		api, _ := raw["apiVersion"].(string)
		kind, _ := raw["kind"].(string)
		if kind == "" || api == "" {
			return nil
		}
		if strings.HasSuffix(kind, "List") && api == "v1" {
			items, _ := raw["items"].([]any)
			for _, it := range items {
				m, ok := it.(map[string]any)
				if !ok {
					continue
				}
				if err := addObject(m, &out, index); err != nil {
					return err
				}
			}
			return nil
		}
		return addObject(raw, &out, index)
	}
	for _, file := range files {
		f := file.Name
		r := k8syaml.NewYAMLReader(bufio.NewReader(strings.NewReader(file.Text)))
		for {
			doc, err := r.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %v", f, err)
			}
			if len(bytes.TrimSpace(doc)) == 0 {
				continue
			}
			js, err := yaml.YAMLToJSON(doc)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", f, err)
			}
			var raw map[string]any
			if err := json.Unmarshal(js, &raw); err != nil || raw == nil {
				continue // not a mapping: nothing istiod would read
			}
			if err := add(raw); err != nil {
				return nil, fmt.Errorf("%s: %v", f, err)
			}
		}
	}
	return out, nil
}

// clusterScoped are the kinds of the files that have no namespace in a cluster: they keep
// none (a namespaced IngressClass or GatewayClass is one istiod's lookups by name never find).
var clusterScoped = map[string]bool{
	"Namespace": true, "Node": true, "IngressClass": true, "GatewayClass": true,
	"MutatingWebhookConfiguration": true, "ValidatingWebhookConfiguration": true, "CustomResourceDefinition": true,
}

func addObject(raw map[string]any, out *[]Object, index map[string]int) error {
	api, _ := raw["apiVersion"].(string)
	kind, _ := raw["kind"].(string)
	meta, _ := raw["metadata"].(map[string]any)
	ns, _ := meta["namespace"].(string)
	name, _ := meta["name"].(string)
	if ns == "" && !clusterScoped[kind] {
		ns = "default"
		if meta == nil {
			meta = map[string]any{}
			raw["metadata"] = meta
		}
		if !isIstioConfig(api) {
			meta["namespace"] = ns
		}
	}
	js, err := json.Marshal(raw)
	if err != nil {
		return err
	}
	o := Object{APIVersion: api, Kind: kind, Namespace: ns, Name: name, JSON: js}
	if i, ok := index[o.key()]; ok {
		(*out)[i] = o
		return nil
	}
	index[o.key()] = len(*out)
	*out = append(*out, o)
	return nil
}

// meshFrom reads --mesh's text (a MeshConfig, or a ConfigMap with data.mesh), else the
// workspace's istio-system/istio ConfigMap, else Istio's defaults.
func meshFrom(meshText string, objs []Object) (*meshconfig.MeshConfig, error) {
	text := ""
	if meshText != "" {
		data := []byte(meshText)
		text = meshText
		var cm struct {
			Kind string            `json:"kind"`
			Data map[string]string `json:"data"`
		}
		if err := yaml.Unmarshal(data, &cm); err == nil && cm.Kind == "ConfigMap" {
			text = cm.Data["mesh"]
		}
	} else {
		for _, o := range objs {
			if o.Kind == "ConfigMap" && o.APIVersion == "v1" && o.Namespace == "istio-system" && o.Name == "istio" {
				var cm corev1.ConfigMap
				if err := json.Unmarshal(o.JSON, &cm); err == nil {
					text = cm.Data["mesh"]
				}
			}
		}
	}
	if strings.TrimSpace(text) == "" {
		return mesh.DefaultMeshConfig(), nil
	}
	return mesh.ApplyMeshConfigDefaults(text)
}

// ---- what a cluster's controllers would add ------------------------------------------------

func labelsMatch(selector, labels map[string]string) bool {
	for k, v := range selector {
		if lv, ok := labels[k]; !ok || lv != v {
			return false
		}
	}
	return true
}

func readyPod(p *corev1.Pod) {
	if p.Spec.ServiceAccountName == "" {
		p.Spec.ServiceAccountName = p.Spec.DeprecatedServiceAccount
	}
	if p.Spec.ServiceAccountName == "" {
		p.Spec.ServiceAccountName = "default"
	}
	// A pod listed without conditions (a dump trimmed to the fields the analysis reads, like
	// `phase: Running` alone) is a running pod whose kubelet reports it Ready.
	if len(p.Status.Conditions) == 0 && (p.Status.Phase == "" || p.Status.Phase == corev1.PodRunning) {
		p.Status.Phase = corev1.PodRunning
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	}
	if len(p.Status.PodIPs) == 0 && p.Status.PodIP != "" {
		p.Status.PodIPs = []corev1.PodIP{{IP: p.Status.PodIP}}
	}
}

func podReady(p *corev1.Pod) bool {
	if p.Status.PodIP == "" || p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
		return false
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// targetPort resolves a Service port's target on a pod (0: the pod does not serve it).
func targetPort(sp corev1.ServicePort, p *corev1.Pod) int32 {
	switch {
	case sp.TargetPort.Type == intstr.String && sp.TargetPort.StrVal != "":
		for _, c := range p.Spec.Containers {
			for _, cp := range c.Ports {
				if cp.Name == sp.TargetPort.StrVal {
					return cp.ContainerPort
				}
			}
		}
		return 0
	case sp.TargetPort.IntVal != 0:
		return sp.TargetPort.IntVal
	default:
		return sp.Port
	}
}

// endpointSlices writes the slices the EndpointSlice controller would for Services that have none.
func endpointSlices(services []*corev1.Service, pods []*corev1.Pod, existing map[string]bool) []kuberuntime.Object {
	var out []kuberuntime.Object
	for _, svc := range services {
		if len(svc.Spec.Selector) == 0 || existing[svc.Namespace+"/"+svc.Name] {
			continue
		}
		groups := map[string]*discoveryv1.EndpointSlice{}
		var order []string
		for _, p := range pods {
			if p.Namespace != svc.Namespace || !podReady(p) || !labelsMatch(svc.Spec.Selector, p.Labels) {
				continue
			}
			var ports []discoveryv1.EndpointPort
			var sig []string
			for _, sp := range svc.Spec.Ports {
				tp := targetPort(sp, p)
				if tp == 0 {
					continue
				}
				name, proto, port := sp.Name, sp.Protocol, tp
				if proto == "" {
					proto = corev1.ProtocolTCP
				}
				ports = append(ports, discoveryv1.EndpointPort{Name: &name, Protocol: &proto, Port: &port, AppProtocol: sp.AppProtocol})
				sig = append(sig, fmt.Sprintf("%s:%d", name, tp))
			}
			k := strings.Join(sig, ",")
			s, ok := groups[k]
			if !ok {
				s = &discoveryv1.EndpointSlice{
					TypeMeta: metav1.TypeMeta{APIVersion: "discovery.k8s.io/v1", Kind: "EndpointSlice"},
					ObjectMeta: metav1.ObjectMeta{
						Name:      fmt.Sprintf("%s-oracle-%d", svc.Name, len(order)),
						Namespace: svc.Namespace,
						Labels: map[string]string{
							discoveryv1.LabelServiceName: svc.Name,
							discoveryv1.LabelManagedBy:   "endpointslice-controller.k8s.io",
						},
					},
					AddressType: discoveryv1.AddressTypeIPv4,
					Ports:       ports,
				}
				groups[k] = s
				order = append(order, k)
			}
			ready := true
			ep := discoveryv1.Endpoint{
				Addresses:  []string{p.Status.PodIP},
				Conditions: discoveryv1.EndpointConditions{Ready: &ready},
				TargetRef:  &corev1.ObjectReference{Kind: "Pod", Name: p.Name, Namespace: p.Namespace, UID: p.UID},
			}
			if p.Spec.NodeName != "" {
				n := p.Spec.NodeName
				ep.NodeName = &n
			}
			s.Endpoints = append(s.Endpoints, ep)
		}
		for _, k := range order {
			out = append(out, groups[k])
		}
	}
	return out
}

// fixedCreation is the creation time of config objects written without one.
var fixedCreation = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// ---- the proxy -----------------------------------------------------------------------------

// proxyNode is the Envoy node the pod's istio-agent would send: its id and the metadata the
// injector's template sets (ISTIO_VERSION, labels, namespace, service account, cluster, …).
func proxyNode(p *corev1.Pod, typ model.NodeType, istioVersion string, m *meshconfig.MeshConfig) (*core.Node, error) {
	ip := p.Status.PodIP
	if ip == "" {
		return nil, fmt.Errorf("pod %s.%s has no status.podIP", p.Name, p.Namespace)
	}
	sa := p.Spec.ServiceAccountName
	if sa == "" {
		sa = p.Spec.DeprecatedServiceAccount
	}
	if sa == "" {
		sa = "default"
	}
	interception := p.Annotations["sidecar.istio.io/interceptionMode"]
	if interception == "" {
		interception = "REDIRECT"
	}
	labels := map[string]any{}
	for k, v := range p.Labels {
		labels[k] = v
	}
	meta := map[string]any{
		"ISTIO_VERSION":         istioVersion,
		"LABELS":                labels,
		"NAMESPACE":             p.Namespace,
		"SERVICE_ACCOUNT":       sa,
		"CLUSTER_ID":            "Kubernetes",
		"MESH_ID":               m.GetTrustDomain(),
		"INSTANCE_IPS":          ip,
		"INTERCEPTION_MODE":     interception,
		"WORKLOAD_NAME":         workloadName(p),
		"ENVOY_STATUS_PORT":     15021,
		"ENVOY_PROMETHEUS_PORT": 15090,
		"NAME":                  p.Name,
	}
	if p.Spec.NodeName != "" {
		meta["NODE_NAME"] = p.Spec.NodeName
	}
	// ISTIO_META_* of the proxy's environment become metadata (istio-agent does this): from the
	// mesh's defaultConfig.proxyMetadata, overridden by the pod's proxy.istio.io/config annotation.
	proxyMetadata := map[string]string{}
	for k, v := range m.GetDefaultConfig().GetProxyMetadata() {
		proxyMetadata[k] = v
	}
	if ann := p.Annotations["proxy.istio.io/config"]; ann != "" {
		var pc struct {
			ProxyMetadata map[string]string `json:"proxyMetadata"`
		}
		if err := yaml.Unmarshal([]byte(ann), &pc); err == nil {
			for k, v := range pc.ProxyMetadata {
				proxyMetadata[k] = v
			}
		}
	}
	for k, v := range proxyMetadata {
		if strings.HasPrefix(k, "ISTIO_META_") {
			meta[strings.TrimPrefix(k, "ISTIO_META_")] = v
		}
	}
	st, err := structpb.NewStruct(meta)
	if err != nil {
		return nil, err
	}
	id := fmt.Sprintf("%s~%s~%s.%s~%s.svc.cluster.local", typ, ip, p.Name, p.Namespace, p.Namespace)
	return &core.Node{Id: id, Metadata: st}, nil
}

// workloadName is the injector's: the Deployment of a ReplicaSet-owned pod, else the owner, else the pod.
func workloadName(p *corev1.Pod) string {
	for _, o := range p.OwnerReferences {
		if o.Controller != nil && *o.Controller || len(p.OwnerReferences) == 1 {
			if o.Kind == "ReplicaSet" {
				if i := strings.LastIndex(o.Name, "-"); i > 0 {
					return o.Name[:i]
				}
			}
			return o.Name
		}
	}
	return p.Name
}

// ---- output --------------------------------------------------------------------------------

func toJSON(m proto.Message) (any, error) {
	b, err := protojson.MarshalOptions{Resolver: protoregistry.GlobalTypes}.Marshal(m)
	if err != nil {
		return nil, err
	}
	// protojson's spacing is randomised on purpose; decoding and encoding again makes it stable.
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func asMessages[T proto.Message](xs []T) []proto.Message {
	out := make([]proto.Message, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

func named(items []proto.Message, name func(proto.Message) string) ([]any, error) {
	sort.SliceStable(items, func(i, j int) bool { return name(items[i]) < name(items[j]) })
	out := make([]any, 0, len(items))
	for _, it := range items {
		v, err := toJSON(it)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// ProxyRequest names a proxy: NAME.NAMESPACE of a Pod in the files, and its type.
type ProxyRequest struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

func NodeType(t string) (model.NodeType, error) {
	switch t {
	case "sidecar", "":
		return model.SidecarProxy, nil
	case "router":
		return model.Router, nil
	}
	return "", fmt.Errorf("proxy type must be sidecar or router, not %q", t)
}

// Workspace is a workspace loaded into a test discovery server.
type Workspace struct {
	S    *xds.FakeDiscoveryServer
	Mesh *meshconfig.MeshConfig
	// Pods are the workspace's Pods as loaded (taken as Running and Ready where the files say nothing).
	Pods []*corev1.Pod
	// Kube are the Kubernetes objects given to the fake client (Pods and Services with the
	// defaults above, and the EndpointSlices written for Services without one).
	Kube []kuberuntime.Object
	// Objects are every document of the files as read (later duplicates winning).
	Objects  []Object
	Rejected []Rejection
}

// Load reads the files into a test discovery server (failures through f).
func Load(f *Failer, files []InputFile, meshText string) *Workspace {
	objs, err := readObjects(files)
	if err != nil {
		f.Exit(err.Error())
	}
	m, err := meshFrom(meshText, objs)
	if err != nil {
		f.Exit("mesh config: " + err.Error())
	}

	type configDoc struct {
		obj  Object
		yaml string
	}
	var configDocs []configDoc
	var kube []kuberuntime.Object
	var pods []*corev1.Pod
	var services []*corev1.Service
	haveSlices := map[string]bool{}
	decode := kubelib.IstioCodec.UniversalDeserializer().Decode
	for _, o := range objs {
		if isIstioConfig(o.APIVersion) {
			y, err := yaml.JSONToYAML(o.JSON)
			if err != nil {
				f.Exit(err.Error())
			}
			configDocs = append(configDocs, configDoc{obj: o, yaml: string(y)})
			continue
		}
		obj, _, err := decode(o.JSON, nil, nil)
		if err != nil {
			fmt.Fprintf(os.Stderr, f.prog()+": skipped %s %s/%s: %v\n", o.Kind, o.Namespace, o.Name, err)
			continue
		}
		switch v := obj.(type) {
		case *corev1.Pod:
			readyPod(v)
			pods = append(pods, v)
		case *corev1.Service:
			for i := range v.Spec.Ports {
				sp := &v.Spec.Ports[i]
				if sp.TargetPort.Type == intstr.Int && sp.TargetPort.IntVal == 0 {
					sp.TargetPort = intstr.FromInt32(sp.Port)
				}
				if sp.Protocol == "" {
					sp.Protocol = corev1.ProtocolTCP
				}
			}
			services = append(services, v)
		case *discoveryv1.EndpointSlice:
			haveSlices[v.Namespace+"/"+v.Labels[discoveryv1.LabelServiceName]] = true
		}
		kube = append(kube, obj)
	}
	kube = append(kube, endpointSlices(services, pods, haveSlices)...)

	// The config as istiod's Kubernetes config store gives it: short hosts resolve against
	// the cluster's domain suffix (config.Meta.Domain; the test harness leaves it empty, which
	// would make "reviews" reviews.NS instead of reviews.NS.svc.cluster.local), and objects
	// written without a creation time get one shared, fixed time (as the harness gives them
	// one shared time.Now()), so the output does not depend on the clock.
	// Each object is parsed and validated on its own, as the API server's validating webhook
	// (istiod's) admits or refuses each object: an invalid one is left out and reported
	// (rejected), the others are loaded.
	var configs []config.Config
	var rejected []Rejection
	for _, d := range configDocs {
		cs, _, err := crd.ParseInputs(d.yaml)
		if err != nil {
			rejected = append(rejected, Rejection{Kind: d.obj.Kind, Namespace: d.obj.Namespace, Name: d.obj.Name, Error: err.Error()})
			fmt.Fprintf(os.Stderr, f.prog()+": rejected %s %s/%s (the validating webhook would refuse it): %v\n", d.obj.Kind, d.obj.Namespace, d.obj.Name, err)
			continue
		}
		configs = append(configs, cs...)
	}
	for i := range configs {
		c := &configs[i]
		c.Domain = "cluster.local"
		if c.Namespace == "" {
			c.Namespace = "default"
		}
		if c.CreationTimestamp.IsZero() {
			c.CreationTimestamp = fixedCreation
		}
	}

	s := xds.NewFakeDiscoveryServer(f, xds.FakeOptions{
		Configs:           configs,
		KubernetesObjects: kube,
		MeshConfig:        m,
		KubeClientBuilder: fakeKubeClient,
	})
	return &Workspace{S: s, Mesh: m, Pods: pods, Kube: kube, Objects: objs, Rejected: rejected}
}

// Rejection is a config object left out because Istio's validation refuses it.
type Rejection struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Error     string `json:"error"`
}

// Resources are the xDS resources istiod generates for one proxy.
type Resources struct {
	Listeners []*listener.Listener
	Clusters  []*cluster.Cluster
	Routes    []*route.RouteConfiguration
	Endpoints []*endpoint.ClusterLoadAssignment
}

// Resources builds one proxy of a loaded workspace as istiod does and returns its resources,
// in the order istiod generates them.
func (w *Workspace) Resources(pr ProxyRequest, istioVersion string) (*Resources, error) {
	typ, err := NodeType(pr.Type)
	if err != nil {
		return nil, err
	}
	name, ns := pr.Name, "default"
	if i := strings.LastIndex(name, "."); i > 0 {
		name, ns = name[:i], name[i+1:]
	}
	var pod *corev1.Pod
	for _, p := range w.Pods {
		if p.Name == name && p.Namespace == ns {
			pod = p
		}
	}
	if pod == nil {
		return nil, fmt.Errorf("no Pod %s in namespace %s in the files", name, ns)
	}
	node, err := proxyNode(pod, typ, istioVersion, w.Mesh)
	if err != nil {
		return nil, err
	}
	s := w.S

	// The proxy as istiod initialises a connecting one (initProxyMetadata, then computeProxyState):
	// metadata and id from the node, workload labels from the registry, topology labels, then
	// service targets, sidecar scope and gateways (SetupProxy).
	meta, err := model.ParseMetadata(node.Metadata)
	if err != nil {
		return nil, err
	}
	p, err := model.ParseServiceNodeWithMetadata(node.Id, meta)
	if err != nil {
		return nil, err
	}
	p.ConfigNamespace = model.GetProxyConfigNamespace(p)
	p.XdsNode = node
	p.SetWorkloadLabels(s.Env())
	p.Locality = &core.Locality{
		Region: p.Labels[labelutil.LabelTopologyRegion],
		Zone:   p.Labels[labelutil.LabelTopologyZone],
	}
	locality := ""
	if p.Locality.Region != "" || p.Locality.Zone != "" {
		locality = p.Locality.Region + "/" + p.Locality.Zone
	}
	p.Labels = labelutil.AugmentLabels(p.Labels, p.Metadata.ClusterID, locality, p.GetNodeName(), p.Metadata.Network)
	p = s.SetupProxy(p)

	listeners := s.Listeners(p)
	return &Resources{
		Listeners: listeners,
		Clusters:  s.Clusters(p),
		Routes:    s.RoutesFromListeners(p, listeners),
		Endpoints: s.Endpoints(p),
	}, nil
}

// Generate builds one proxy of a loaded workspace as istiod does and returns its resources as
// JSON values, each list sorted by name.
func (w *Workspace) Generate(pr ProxyRequest, istioVersion string) (map[string]any, error) {
	r, err := w.Resources(pr, istioVersion)
	if err != nil {
		return nil, err
	}
	listeners, clusters, routes, endpoints := r.Listeners, r.Clusters, r.Routes, r.Endpoints
	out := map[string]any{}
	getName := func(c proto.Message) string { return c.(interface{ GetName() string }).GetName() }
	if out["clusters"], err = named(asMessages(clusters), getName); err != nil {
		return nil, err
	}
	if out["listeners"], err = named(asMessages(listeners), getName); err != nil {
		return nil, err
	}
	if out["routes"], err = named(asMessages(routes), getName); err != nil {
		return nil, err
	}
	if out["endpoints"], err = named(asMessages(endpoints), func(c proto.Message) string { return c.(interface{ GetClusterName() string }).GetClusterName() }); err != nil {
		return nil, err
	}
	return out, nil
}

// ConfigureLog sends Istio's logs to stderr at the level named (none, error, warn, info,
// debug): Istio logs to stdout by default, and stdout is the command's output.
func ConfigureLog(name string) error {
	lo := log.DefaultOptions()
	lo.OutputPaths = []string{"stderr"}
	lo.ErrorOutputPaths = []string{"stderr"}
	level, ok := map[string]log.Level{"none": log.NoneLevel, "error": log.ErrorLevel, "warn": log.WarnLevel, "info": log.InfoLevel, "debug": log.DebugLevel}[name]
	if !ok {
		return errors.New("--log-level must be none, error, warn, info or debug")
	}
	lo.SetDefaultOutputLevel(log.OverrideScopeName, level)
	lo.SetDefaultOutputLevel("all", level)
	return log.Configure(lo)
}
