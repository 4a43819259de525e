package harness

import (
	"k8s.io/apimachinery/pkg/api/meta"
	kuberuntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubefake "k8s.io/client-go/kubernetes/fake"

	"istio.io/istio/pkg/config"
	"istio.io/istio/pkg/config/schema/gvk"
	kubelib "istio.io/istio/pkg/kube"
)

// fakeKubeClient builds the same fake client as Istio's default (kubelib.NewFakeClientWithVersion
// with every object), faster. client-go's fake Clientset creates each object through a tracker
// that keeps managed fields, and that tracker builds a REST mapper of the whole scheme for every
// object it creates: over a third of the oracle's CPU time on a workspace of a few dozen objects.
// Nothing istiod reads depends on managed fields, so the core Kubernetes objects are added to the
// same tracker without them, at the resource Istio's setupFakeClient would create them under.
// An object whose resource that path would guess differently (Endpoints) is still created the
// slow way; objects of the other API groups go to their own fake clients as before.
func fakeKubeClient(objects ...kuberuntime.Object) kubelib.Client {
	var fast []kuberuntime.Object
	var rest []kuberuntime.Object
	for _, o := range objects {
		gvk, ok := coreResource(o)
		if !ok {
			rest = append(rest, o)
			continue
		}
		cp := o.DeepCopyObject()
		// The managed tracker stamps the kind on what it stores; so does this path.
		cp.GetObjectKind().SetGroupVersionKind(gvk)
		fast = append(fast, cp)
	}
	c := kubelib.NewFakeClientWithVersion("", rest...)
	tracker := c.Kube().(*kubefake.Clientset).Tracker()
	for _, o := range fast {
		if err := tracker.Add(o); err != nil {
			panic("fake client: " + err.Error())
		}
	}
	return c
}

// coreResource is the kind of an object the kube fake client would hold (not an Istio, Gateway
// API or inference object) when the tracker's Add would store it under the same resource as
// setupFakeClient's Create (gvk.ToGVR, else the guess): then Add is the same as Create.
func coreResource(o kuberuntime.Object) (schema.GroupVersionKind, bool) {
	kinds, _, err := kubelib.IstioScheme.ObjectKinds(o)
	if err != nil || len(kinds) == 0 {
		return schema.GroupVersionKind{}, false
	}
	k := kinds[0]
	switch k.Group {
	case "", "apps", "discovery.k8s.io", "networking.k8s.io", "batch", "policy", "admissionregistration.k8s.io", "certificates.k8s.io":
	default:
		return schema.GroupVersionKind{}, false
	}
	want, ok := gvk.ToGVR(config.FromKubernetesGVK(k))
	if !ok {
		want, _ = meta.UnsafeGuessKindToResource(k)
	}
	if want.Group == "core" {
		want.Group = ""
	}
	guessed, _ := meta.UnsafeGuessKindToResource(k)
	if want != guessed {
		return schema.GroupVersionKind{}, false
	}
	return k, true
}
