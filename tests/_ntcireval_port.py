"""Transcription of NTCIREVAL's C loops (ntcir_eval.c eval_compute / eval_gcompute), shared by
the cross-check tests of helpers.measures and helpers.measures.diversity.

A deliberately literal, per-rank Python loop (the opposite of the vectorised engine), so that a
test comparing the two compares two independent implementations of the same definitions.
"""

import math


# ---------------------------------------------------------------------------------------------
# transcription of NTCIREVAL's C loops (eval_compute / eval_gcompute)
# ---------------------------------------------------------------------------------------------

def compute(sys_gains, ideal, hgain, cutoffs, beta=1.0, rbp_p=0.95, rbu_p=0.99, logb=2.0,
            gamma=0.95, sys_levels=None, ideal_levels=None, n_nonrel=None):
    """Scores as printed by ntcir_eval compute/gcompute for one topic (no rounding).

    sys_gains: gains of the labelled system list (0 for judged non-relevant/unjudged);
    ideal: gains of the judged relevant docs; hgain: gv[maxrl] (compute) or the ideal list's
    highest gain (gcompute).

    Issue 14 additions: O-measure, P-measure, the four NCU measures (gamma), GAP and GAP@l,
    and, when ``n_nonrel`` (jnonrel) is given, the condensed-list family computed on
    ``sys_gains`` taken as the condensed list (``-j``). ``sys_levels``/``ideal_levels``: the
    relevance levels (compute: preferred rank and GAP follow levels); without them the gains
    are used (gcompute).
    """
    ideal = sorted([g for g in ideal if g > 0], reverse=True)
    jrel, syslen = len(ideal), len(sys_gains)
    maxlen = max(jrel, syslen)
    z = lambda: [0.0] * (maxlen + 1)  # noqa: E731
    CGi, DCGi, msDCGi, ERRi, ERRidsat = z(), z(), z(), z(), z()
    Gs, CGs, DCGs, msDCGs, count, BR = z(), z(), z(), z(), z(), z()
    GAPsum, GAPisum = z(), z()
    lev = list(sys_levels) if sys_levels is not None else list(sys_gains)
    ilev = sorted([x for x in (ideal_levels if ideal_levels is not None else ideal) if x > 0],
                  reverse=True)
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
        GAPisum[i] = GAPisum[i - 1] + ilev[i - 1] * (ilev[i - 1] + 1)
    for i in range(jrel + 1, maxlen + 1):
        CGi[i], DCGi[i], msDCGi[i], ERRi[i] = CGi[jrel], DCGi[jrel], msDCGi[jrel], ERRi[jrel]
        GAPisum[i] = GAPisum[jrel]
    RBPpow[1] if maxlen else None
    if maxlen:
        RBPpow[1] = 1.0
    ERRdsat[0] = 1.0
    r1 = rp = 0
    maxg = max(sys_gains) if sys_gains else 0.0
    maxrl_system = 0
    for i in range(1, syslen + 1):
        v = sys_gains[i - 1]
        if v > 0:
            count[i] = count[i - 1] + 1
            Gs[i] = v
            CGs[i] = CGs[i - 1] + v
            DCGs[i] = DCGs[i - 1] + v / dcglog(i)
            msDCGs[i] = msDCGs[i - 1] + v / math.log(i + 1)
            GAPsum[i] = 0.0
            for j in range(1, i + 1):  # m(i,j) = min(level_i, level_j); add m(m+1)
                a, b = lev[i - 1], (lev[j - 1] if sys_gains[j - 1] > 0 else 0)
                GAPsum[i] += a * (a + 1) if a < b else b * (b + 1)
            if count[i] == 1:
                r1 = i
            if sys_levels is None:
                if rp == 0 and v == maxg:  # gcompute
                    rp = i
            elif maxrl_system < sys_levels[i - 1]:  # compute: first rank of the highest level
                maxrl_system = sys_levels[i - 1]
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
    out = {"r1": r1, "rp": rp}
    if r1 == 0:
        out["RR"] = out["P+"] = out["O-measure"] = out["P-measure"] = 0.0
    else:
        out["RR"] = 1 / r1
        out["O-measure"], out["P-measure"] = BR[r1], BR[rp]
        out["P+"] = sum(BR[i] for i in range(1, rp + 1) if Gs[i] > 0) / count[rp]
    # NCU: graded-uniform (stop value = gain, NTCIREVAL's default without -s) and rank-biased
    denom = sum(ideal)
    s1 = s2 = 0.0
    for i in range(1, syslen + 1):
        if Gs[i] > 0:
            s1 += (count[i] / i) * Gs[i]
            s2 += BR[i] * Gs[i]
    out["NCU(stop=gu,util=P)"], out["NCU(stop=gu,util=BR)"] = s1 / denom, s2 / denom
    denom = 0.0
    for i in range(1, jrel + 1):
        denom += gamma ** (i - 1)
    s1 = s2 = 0.0
    for i in range(1, syslen + 1):
        if Gs[i] > 0:
            s1 += (count[i] / i) * gamma ** (count[i] - 1)
            s2 += BR[i] * gamma ** (count[i] - 1)
    out["NCU(stop=rb,util=P)"], out["NCU(stop=rb,util=BR)"] = s1 / denom, s2 / denom
    out["GAP"] = sum(GAPsum[i] / i for i in range(1, syslen + 1)) / GAPisum[jrel]
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
        s = sum(GAPsum[j] / j for j in range(1, m + 1))
        out[f"GAP@{c}"] = s / GAPisum[c] if c < jrel else s / GAPisum[jrel]
    if n_nonrel is not None:  # -j: sys_gains is the condensed list
        N = n_nonrel
        s1 = s2 = 0.0
        for i in range(1, syslen + 1):
            if Gs[i] > 0:
                mini = min(i - count[i], jrel)
                s1 += 1 - mini / N if jrel > N else 1 - mini / jrel
                s2 += 1 - mini / jrel
        out["bpref"], out["bpref_R"] = s1 / jrel, s2 / jrel
        s1 = s2 = 0.0
        for i in range(1, syslen + 1):
            if Gs[i] > 0:
                s1 += 1 - (i - count[i]) / N
                s2 += 1 - (i - count[i]) / (i - 1) if i > 1 else 0.0
        out["bpref_N"], out["bpref_relative"] = s1 / jrel, s2 / jrel
        s1 = s2 = s3 = 0.0
        for i in range(1, syslen + 1):
            if Gs[i] > 0:
                penalty = 0.0
                for j in range(1, i):
                    if Gs[i] - Gs[j] > 0:
                        penalty += (Gs[i] - Gs[j]) / Gs[i]
                s1 += Gs[i] * (1 - penalty / (jrel + N - CGi[jrel] / hgain))
                s2 += Gs[i] * ((1 - penalty / (i - 1)) if i > 1 else 0.0)
                s3 += Gs[i] * (1 - penalty / i)
        out["rpref_N"] = s1 / CGi[jrel]
        out["rpref_relative"] = s2 / CGi[jrel]
        out["rpref_relative2"] = s3 / CGi[jrel]
    return out
