#!/usr/bin/env python3
"""Import circles between the files of Rust crates: fails when any file
reaches, through `use crate::...` / `super::...` paths, a file that reaches
it back (a strongly connected set of files), or when two top-level modules
(folders) use each other. A child using its parent's items is not a
circle. Test modules (`#[cfg(test)] mod tests`) and comments are left out.

    tools/import_circles.py CRATE_SRC_DIR...    (run by .ci/run)
"""
import os
import re
import sys

# map module path -> file for a crate src dir
def crate_files(src):
    files = {}
    for d, _, fs in os.walk(src):
        for f in fs:
            if f.endswith('.rs'):
                p = os.path.join(d, f)
                rel = os.path.relpath(p, src)[:-3].split(os.sep)
                if rel[-1] in ('mod', 'lib', 'main'):
                    rel = rel[:-1]
                files[tuple(rel)] = p
    return files
def refs(text, mod):
    out = set()
    text = re.sub(r'//[^\n]*', '', text)
    # cut test modules
    text = re.split(r'#\[cfg\(test\)\]\s*mod tests', text)[0]
    for m in re.finditer(r'\b(crate|super(?:::super)*)::((?:\{[^;]*\})|[A-Za-z_][A-Za-z0-9_:]*)', text):
        head, rest = m.group(1), m.group(2)
        base = [] if head == 'crate' else list(mod[:len(mod) - head.count('super')])
        items = []
        def expand(prefix, s):
            s = s.strip()
            if s.startswith('{'):
                depth=0; cur=''; parts=[]
                for ch in s[1:-1]:
                    if ch=='{': depth+=1
                    if ch=='}': depth-=1
                    if ch==',' and depth==0: parts.append(cur); cur=''
                    else: cur+=ch
                parts.append(cur)
                for p in parts:
                    if p.strip(): expand(prefix, p)
            else:
                if '::{' in s:
                    a, b = s.split('::{', 1)
                    expand(prefix + a.split('::'), '{' + b)
                else:
                    items.append(prefix + [x for x in s.split(' as ')[0].strip().split('::') if x])
        expand(base, rest)
        out.update(tuple(i) for i in items)
    return out
found = 0
for src in sys.argv[1:]:
    files = crate_files(src)
    graph = {}
    for mod, path in files.items():
        deps = set()
        for r in refs(open(path).read(), mod):
            # longest prefix that is a file
            for n in range(len(r), -1, -1):
                if tuple(r[:n]) in files:
                    t = tuple(r[:n]); break
            if t != mod and t != () and not (len(t) < len(mod) and mod[:len(t)] == t):
                deps.add(t)
        graph[mod] = deps
    # find 2-cycles and longer via SCC
    idx = {}; low = {}; st = []; on = set(); sccs = []; c = [0]
    sys.setrecursionlimit(10000)
    def sc(v):
        idx[v] = low[v] = c[0]; c[0] += 1; st.append(v); on.add(v)
        for w in graph.get(v, ()):
            if w not in idx: sc(w); low[v] = min(low[v], low[w])
            elif w in on: low[v] = min(low[v], idx[w])
        if low[v] == idx[v]:
            comp = []
            while True:
                w = st.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1: sccs.append(comp)
    for v in graph:
        if v not in idx: sc(v)
    for comp in sccs:
        found += 1
        print(f"{src}: files import each other: {' <-> '.join('/'.join(m) or 'lib' for m in comp)}")
    # folders: the top-level modules
    top = {}
    for v, ws in graph.items():
        for w in ws:
            if v and w and v[0] != w[0]:
                top.setdefault(v[0], set()).add(w[0])
    seen=set()
    for a, bs in top.items():
        for b in bs:
            if a in top.get(b, ()) and (b, a) not in seen:
                seen.add((a, b))
                found += 1
                print(f"{src}: modules import each other: {a} <-> {b}")

if found:
    sys.exit(f"{found} import circle(s): move what both sides use into a module of its own")
print(f"no import circles in {' '.join(sys.argv[1:])}")
