"""Samples of a .phdf file in the format of org.metope.examples.PhdfSamples (test sources).

For every block (level and logical location), every written field and component: one line
'block LEVEL:LX1,LX2,LX3 FIELD COMPONENT MIN MAX SUM_OF_ABS' and, every STRIDE-th cell of the
block's cells of that component (the dataset's last three extents), 'cell ... COMPONENT CELL
VALUE'; values with 17 significant digits, sums accumulated cell by cell in file order.

Usage: /usr/bin/python3 phdf_samples.py FILE.phdf SAMPLES.txt STRIDE
"""
import sys

import h5py
import numpy as np


def samples(path, stride):
    lines = []
    with h5py.File(path, "r") as f:
        lx = f["Blocks/loc.lx123"][:].reshape(-1, 3)
        ids = f["Blocks/loc.level-gid-lid-cnghost-gflag"][:].reshape(-1, 5)
        names = f["Info"].attrs["OutputDatasetNames"]
        for name in [n.decode() if isinstance(n, bytes) else str(n) for n in np.atleast_1d(names)]:
            data = f[name][:]
            cells = int(np.prod(data.shape[-3:]))
            values = data.reshape(len(lx), -1, cells)
            for b in range(len(lx)):
                where = "%d:%d,%d,%d" % (ids[b][0], lx[b][0], lx[b][1], lx[b][2])
                for c in range(values.shape[1]):
                    v = values[b, c]
                    for n in range(0, cells, stride):
                        lines.append("cell %s %s %d %d %.16e" % (where, name, c, n, v[n]))
                    sum_abs = np.cumsum(np.abs(v))[-1]
                    lines.append("block %s %s %d %.16e %.16e %.16e"
                                 % (where, name, c, v.min(), v.max(), sum_abs))
    return lines


if __name__ == "__main__":
    with open(sys.argv[2], "w") as out:
        out.write("\n".join(samples(sys.argv[1], int(sys.argv[3]))) + "\n")
