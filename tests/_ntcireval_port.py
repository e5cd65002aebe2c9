"""Transcription of NTCIREVAL's C loops (ntcir_eval.c eval_compute / eval_gcompute), shared by
the cross-check tests of helpers.measures and helpers.diversity.

A deliberately literal, per-rank Python loop (the opposite of the vectorised engine), so that a
test comparing the two compares two independent implementations of the same definitions.
"""

import math


# ---------------------------------------------------------------------------------------------
# transcription of NTCIREVAL's C loops (eval_compute / eval_gcompute)
# ---------------------------------------------------------------------------------------------

def compute(sys_gains, ideal, hgain, cutoffs, beta=1.0, rbp_p=0.95, rbu_p=0.99, logb=2.0):
    """Scores as printed by ntcir_eval compute/gcompute for one topic (no rounding).

    sys_gains: gains of the labelled system list (0 for judged non-relevant/unjudged);
    ideal: gains of the judged relevant docs; hgain: gv[maxrl] (compute) or the ideal list's
    highest gain (gcompute).
    """
    ideal = sorted([g for g in ideal if g > 0], reverse=True)
    jrel, syslen = len(ideal), len(sys_gains)
    maxlen = max(jrel, syslen)
    z = lambda: [0.0] * (maxlen + 1)  # noqa: E731
    CGi, DCGi, msDCGi, ERRi, ERRidsat = z(), z(), z(), z(), z()
    Gs, CGs, DCGs, msDCGs, count, BR = z(), z(), z(), z(), z(), z()
    RBPpow, RBPsum, ERRv, ERRdsat, EBR, iRBU = z(), z(), z(), z(), z(), z()

    def dcglog(i):
        return 1.0 if (i == 1 or i <= logb) else math.log(i) / math.log(logb)

    ERRidsat[0] = 1.0
    for i in range(1, jrel + 1):
        v = ideal[i - 1]
        CGi[i] = CGi[i - 1] + v
        DCGi[i] = DCGi[i - 1] + v / dcglog(i)
        msDCGi[i] = msDCGi[i - 1] + v / math.log(i + 1)
        ERRi[i] = ERRi[i - 1] + (ERRidsat[i - 1] / i) * (v / (hgain + 1))
        ERRidsat[i] = ERRidsat[i - 1] * (1 - v / (hgain + 1))
    for i in range(jrel + 1, maxlen + 1):
        CGi[i], DCGi[i], msDCGi[i], ERRi[i] = CGi[jrel], DCGi[jrel], msDCGi[jrel], ERRi[jrel]
    RBPpow[1] if maxlen else None
    if maxlen:
        RBPpow[1] = 1.0
    ERRdsat[0] = 1.0
    r1 = rp = 0
    maxg = max(sys_gains) if sys_gains else 0.0
    for i in range(1, syslen + 1):
        v = sys_gains[i - 1]
        if v > 0:
            count[i] = count[i - 1] + 1
            Gs[i] = v
            CGs[i] = CGs[i - 1] + v
            DCGs[i] = DCGs[i - 1] + v / dcglog(i)
            msDCGs[i] = msDCGs[i - 1] + v / math.log(i + 1)
            if count[i] == 1:
                r1 = i
            if rp == 0 and v == maxg:
                rp = i
        else:
            count[i], CGs[i], DCGs[i], msDCGs[i] = count[i - 1], CGs[i - 1], DCGs[i - 1], msDCGs[i - 1]
        BR[i] = (beta * CGs[i] + count[i]) / (beta * CGi[i] + i)
        if i > 1:
            RBPpow[i] = rbp_p * RBPpow[i - 1]
        RBPsum[i] = RBPsum[i - 1] + Gs[i] * RBPpow[i]
        ERRv[i] = ERRv[i - 1] + (ERRdsat[i - 1] / i) * (Gs[i] / (hgain + 1))
        ERRdsat[i] = ERRdsat[i - 1] * (1 - Gs[i] / (hgain + 1))
        EBR[i] = EBR[i - 1] + BR[i] * ERRdsat[i - 1] * Gs[i] / (hgain + 1)
        iRBU[i] = iRBU[i - 1] + rbu_p ** i * ERRdsat[i - 1] * Gs[i] / (hgain + 1)
    for i in range(syslen + 1, maxlen + 1):
        count[i], CGs[i], DCGs[i], msDCGs[i] = count[syslen], CGs[syslen], DCGs[syslen], msDCGs[syslen]
        ERRv[i], EBR[i], iRBU[i], RBPsum[i] = ERRv[syslen], EBR[syslen], iRBU[syslen], RBPsum[syslen]
    out = {}
    if r1 == 0:
        out["RR"] = out["P+"] = 0.0
    else:
        out["RR"] = 1 / r1
        out["P+"] = sum(BR[i] for i in range(1, rp + 1) if Gs[i] > 0) / count[rp]
    out["AP"] = sum(count[i] / i for i in range(1, syslen + 1) if Gs[i] > 0) / jrel
    out["Q"] = sum(BR[i] for i in range(1, syslen + 1) if Gs[i] > 0) / jrel
    out["RBP"] = (1 - rbp_p) * RBPsum[syslen] / hgain
    out["ERR"], out["EBR"] = ERRv[syslen], EBR[syslen]
    for c in cutoffs:
        m = min(c, syslen)
        s1 = sum(count[j] / j for j in range(1, m + 1) if Gs[j] > 0)
        s2 = sum(BR[j] for j in range(1, m + 1) if Gs[j] > 0)
        div = c if c < jrel else jrel
        out[f"AP@{c}"], out[f"Q@{c}"] = s1 / div, s2 / div
        k = c if c <= maxlen else maxlen
        out[f"nDCG@{c}"] = DCGs[k] / DCGi[k]
        out[f"MSnDCG@{c}"] = msDCGs[k] / msDCGi[k]
        out[f"P@{c}"] = count[k] / c
        out[f"RBP@{c}"] = (1 - rbp_p) * RBPsum[k] / hgain
        out[f"ERR@{c}"] = ERRv[k]
        out[f"nERR@{c}"] = ERRv[k] / ERRi[k]
        out[f"EBR@{c}"] = EBR[k]
        out[f"iRBU@{c}"] = iRBU[k]
        out[f"Hit@{c}"] = 1.0 if count[k] > 0 else 0.0
    return out
