/**
 * Strongly connected components of a graph given as adjacency lists over 0..n-1 that contain a
 * cycle (two or more nodes, or a node with an edge to itself). Iterative Tarjan: a million-item
 * trace with a long chain of blockers must not overflow the stack.
 */
export function findDependencyCycles(edges: readonly (readonly number[])[]): number[][] {
  const n = edges.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const cycles: number[][] = [];
  let next = 0;
  const callNode: number[] = [];
  const callEdge: number[] = [];
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    callNode.push(root);
    callEdge.push(0);
    index[root] = low[root] = next++;
    stack.push(root);
    onStack[root] = 1;
    while (callNode.length > 0) {
      const top = callNode.length - 1;
      const v = callNode[top] as number;
      const out = edges[v] as readonly number[];
      const e = callEdge[top] as number;
      if (e < out.length) {
        callEdge[top] = e + 1;
        const w = out[e] as number;
        if (index[w] === -1) {
          index[w] = low[w] = next++;
          stack.push(w);
          onStack[w] = 1;
          callNode.push(w);
          callEdge.push(0);
        } else if (onStack[w] === 1) low[v] = Math.min(low[v] as number, index[w] as number);
        continue;
      }
      callNode.pop();
      callEdge.pop();
      const parent = callNode[callNode.length - 1];
      if (parent !== undefined) low[parent] = Math.min(low[parent] as number, low[v] as number);
      if (low[v] !== index[v]) continue;
      const component: number[] = [];
      for (;;) {
        const w = stack.pop() as number;
        onStack[w] = 0;
        component.push(w);
        if (w === v) break;
      }
      if (component.length > 1 || out.includes(v)) cycles.push(component.reverse());
    }
  }
  return cycles;
}
