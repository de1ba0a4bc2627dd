"""Writes table.txt: arguments and the correctly rounded exp, sin and cos, by mpmath at 400 bits.

Run with Python 3 and mpmath: python3 make_table.py > table.txt. Lines: function, argument, value,
both as Java/C hexadecimal doubles. The seed fixes the random arguments."""
import math
from fractions import Fraction
import random
import mpmath

mpmath.mp.prec = 400
rng = random.Random(20261124)


def uniform(lo, hi, n):
    return [rng.uniform(lo, hi) for _ in range(n)]


def log_uniform(lo_exp, hi_exp, n):
    return [rng.choice((-1.0, 1.0)) * math.ldexp(rng.uniform(1.0, 2.0), rng.randint(lo_exp, hi_exp))
            for _ in range(n)]


def deck_arguments():
    # Parthenon-VIBE's initial state on 64, 128 and 256 cells across [-0.5, 0.5]: pi x and -30 x^2.
    xs = [(i + 0.5) / n - 0.5 for n in (64, 128, 256) for i in range(n)]
    return [math.pi * x for x in xs], [(-30.0 * x) * x for x in xs]


trig_deck, exp_deck = deck_arguments()
near_half_pi_multiples = [float(mpmath.mpf(k) * mpmath.pi / 2) for k in range(1, 40)]
hard = [1e22, 1e300, 1e-300] + [float.fromhex(h) for h in (
    '0x1.534ac0f19860cp-3', '-0x1.534ac0f19860cp-3', '0x1.921fb54442d18p0')]
arguments = {
    'exp': exp_deck + [float.fromhex('-0x1.77p-5')] + uniform(-7.5, 0.0, 150) + uniform(-745.0, 709.7, 150)
           + log_uniform(-60, 0, 100) + [709.7, -745.0, -744.5, 1e-300],
    'sin': trig_deck + uniform(-2.0, 2.0, 150) + uniform(-1e6, 1e6, 150) + log_uniform(-60, 0, 100)
           + log_uniform(21, 1000, 60) + near_half_pi_multiples + hard,
}
arguments['cos'] = arguments['sin']
functions = {'exp': mpmath.exp, 'sin': mpmath.sin, 'cos': mpmath.cos}
for name, xs in arguments.items():
    for x in xs:
        sign, man, exp, _ = functions[name](mpmath.mpf(x))._mpf_
        exact = (-1) ** sign * Fraction(man) * Fraction(2) ** exp
        value = float(exact)  # a Fraction converts to the nearest float
        print(name, float(x).hex(), value.hex())
