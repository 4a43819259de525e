// Workspace texts the worker tests share.

/** One Deployment (two replicas, so its pods are derived). */
export const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: cart
  namespace: shop
spec:
  replicas: 2
  selector:
    matchLabels: {app: cart}
  template:
    metadata:
      labels: {app: cart}
    spec:
      serviceAccountName: cart
      containers:
      - name: cart
        image: example.org/cart:1
`;
