"""Score resolve cases through the real binary (disk lookups included):

    python3 scripts/resolve-via-cli.py BINARY CASES.jsonl ROOT CORPUS [-v]

ROOT is the tree the corpus was listed from; -v prints each miss.
"""
import sys, json, subprocess, collections, statistics
binary=sys.argv[1]
cases=[json.loads(l) for l in open(sys.argv[2])]
root=sys.argv[3]; corpus=sys.argv[4]
res=collections.defaultdict(lambda:[0,0,0]); ms=[]
for c in cases:
    if c["corpus"]!=corpus or c["kind"]!="resolve": continue
    args=[binary,"resolve","--root",root,"--format","json","--limit","5"]
    for h in c["history"]: args+=["--history",root+"/"+h]
    args.append(c["query"])
    out=subprocess.run(args,capture_output=True,text=True,cwd="/tmp").stdout
    try: d=json.loads(out)
    except Exception: print("bad",c["query"],out[:200]); continue
    ms.append(d["_meta"]["elapsedMs"])
    r=d.get("result") or {}
    got=(r.get("resolved") or {}).get("path","")
    want=c["expected"] or ""
    x=res[c["category"]]; x[0]+=1; x[1]+= got==want; x[2]+= bool(got) and got!=want
    if got!=want and len(sys.argv)>5: print(c["category"],c["query"],"->",got,"want",want)
tot=[0,0,0]
for k,v in sorted(res.items()):
    print(f"| resolve/{k} | {v[0]} | {100*v[1]/v[0]:.1f}% | {100*v[2]/v[0]:.1f}% |"); tot=[a+b for a,b in zip(tot,v)]
print(f"| **all** | {tot[0]} | **{100*tot[1]/tot[0]:.1f}%** | {100*tot[2]/tot[0]:.1f}% |")
print("elapsedMs median", statistics.median(ms), "max", max(ms))
