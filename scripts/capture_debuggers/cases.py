"""The commands captured for the paste corpus and what each output holds.

Each case: (tool, stop, name, command, expect). ``stop`` is where the command runs:
``locals`` (main's frame, every variable set), ``regs`` (after load_regs: xmm0 = farr[0:4],
xmm1 = darr[0:2], xmm2 = harr, ymm3 = farr, xmm4 = bfarr[0:8] and ymm5 = bfarr (bfloat16),
xmm6 = farr[0:2] with the top 64 bits zero) or ``display`` (gdb's display, printed at the
next stop). ``expect`` is a spec :mod:`capture` turns into the corpus's ``expect``:

- ``V(var)``: the bits of a variable of probe.c (a slice of it with ``V(var, a, b)``);
  ``how`` says how the text writes them: ``dec`` (decimals: the same values in another
  width are other readings where exact; lldb prints a NaN without payload or sign, so
  its expected pattern is the format's quiet NaN), ``dec6`` (lldb's vector formats
  print 6 significant digits: the expected patterns are the nearest to the printed
  decimals, in the variable's format, and the case says it is lossy), ``reg`` (a whole register: its bits in other lane
  widths are other readings), ``bits`` (16-bit lanes whose text says no float format: the
same bits as f16 or bfloat16 are another reading), ``int16`` (16-bit integers: the same digits read as float
  decimals are another reading) or ``hex``/``int`` (the text decides);
- ``R(why)``: the text holds no float value (refused).
"""

from __future__ import annotations

from typing import NamedTuple


class V(NamedTuple):
    var: str
    start: int = 0
    stop: int | None = None
    how: str = "dec"


class R(NamedTuple):
    why: str


def _v(var, how="dec", a=0, b=None):
    return V(var, a, b, how)


GDB_PRINT = [  # (variable, how p prints it)
    "farr", "fspec", "darr", "harr", "fone", "fthird", "fdenorm", "fnan", "fneg0", "finf",
    "done", "dthird", "ddenorm", "dnan", "dbig", "hone", "hthird", "hdenorm", "hnan",
    "color", "acc", "vsf", "vdf", "mat", "lf", "ld", "lh", "acc.fade", "color.x", "acc.a1",
    "acc.f4", "farr[3]", "darr[2]", "harr[1]",
]
HEX_PRINT = ["farr", "fspec", "darr", "harr", "fthird", "dthird", "hthird", "vsf", "vdf",
             "fdenorm", "ddenorm", "color", "lf", "mat"]


def gdb_cases():
    out = []
    for v in GDB_PRINT:
        out.append(("locals", "p_" + v, f"print {v}", _v(v)))
    for v in HEX_PRINT:
        out.append(("locals", "px_" + v, f"p/x {v}", _v(v, "hex")))
    for v in ["farr", "darr", "harr", "uarr", "fthird"]:
        out.append(("locals", "pf_" + v, f"p/f {v}", _v(v)))
    for v in ["fone", "fthird", "dthird", "farr", "darr"]:
        out.append(("locals", "pd_" + v, f"p/d {v}", _v(v, "int")))
    out += [
        ("locals", "pd_hthird", "p/d hthird", _v("hthird", "int16")),
        ("locals", "pd_harr", "p/d harr", _v("harr", "int16")),
        ("locals", "pu_farr", "p/u farr", _v("farr", "int")),
        ("locals", "pt_fone", "p/t fone", _v("fone", "bin")),
        ("locals", "pt_fthird", "p/t fthird", _v("fthird", "bin")),
        ("locals", "pt_dthird", "p/t dthird", _v("dthird", "bin")),
        ("locals", "pz_fone", "p/z fone", _v("fone", "hex")),
        ("locals", "pz_farr", "p/z farr", _v("farr", "hex")),
        ("locals", "p_uarr", "print uarr", _v("uarr", "int")),
        ("locals", "px_uarr", "p/x uarr", _v("uarr", "hex")),
        ("locals", "output_farr", "output farr", _v("farr")),
        ("locals", "p_ldthird", "print ldthird",
         R("an x87 long double (80 bits): no format here holds it")),
        ("locals", "ptype_fone", "whatis fone", R("a type, no value")),
        ("locals", "x4fw_farr", "x/4fw farr", _v("farr", "dec", 0, 4)),
        ("locals", "x8fw_farr", "x/8fw farr", _v("farr")),
        ("locals", "x6fw_fspec", "x/6fw fspec", _v("fspec")),
        ("locals", "x2fg_darr", "x/2fg darr", _v("darr", "dec", 0, 2)),
        ("locals", "x6fg_darr", "x/6fg darr", _v("darr")),
        ("locals", "x4fh_harr", "x/4fh harr", _v("harr", "int16", 0, 4)),
        ("locals", "x8fh_harr", "x/8fh harr", _v("harr", "int16")),
        ("locals", "x8xh_harr", "x/8xh harr", _v("harr", "hex")),
        ("locals", "x4dw_farr", "x/4dw farr", _v("farr", "int", 0, 4)),
        ("locals", "x8dw_farr", "x/8dw farr", _v("farr", "int")),
        ("locals", "x4uw_farr", "x/4uw farr", _v("farr", "int", 0, 4)),
        ("locals", "x4xw_farr", "x/4xw farr", _v("farr", "hex", 0, 4)),
        ("locals", "x8xw_farr", "x/8xw farr", _v("farr", "hex")),
        ("locals", "x2xg_darr", "x/2xg darr", _v("darr", "hex", 0, 2)),
        ("locals", "x6xg_darr", "x/6xg darr", _v("darr", "hex")),
        ("locals", "x2dg_darr", "x/2dg darr", _v("darr", "int", 0, 2)),
        ("locals", "x8xb_farr", "x/8xb farr", _v("farr", "hex", 0, 2)),
        ("locals", "x16xb_farr", "x/16xb farr", _v("farr", "hex", 0, 4)),
        ("locals", "x4tw_farr", "x/4tw farr", _v("farr", "bin", 0, 4)),
        ("locals", "xf_fthird", "x/f &fthird", _v("fthird")),
        ("locals", "xfg_dthird", "x/fg &dthird", _v("dthird")),
        ("locals", "x4xw_color", "x/4xw &color", _v("color", "hex")),
        ("locals", "x6fw_mat", "x/6fw mat", _v("mat")),
        ("locals", "x3fw_lf", "x/4fw lf", _v("lf")),
        ("display", "display_farr", "display farr", _v("farr")),
        ("display", "display_x_fone", "display/x fone", _v("fone", "hex")),
        ("display", "display_darr", "display darr", _v("darr")),
        ("display", "display_harr", "display harr", _v("harr")),
        ("regs", "info_xmm0", "info registers xmm0", _v("xmm0", "reg")),
        ("regs", "info_xmm1", "info registers xmm1", _v("xmm1", "reg")),
        ("regs", "info_xmm2", "info registers xmm2", _v("xmm2", "reg")),
        ("regs", "info_ymm3", "info registers ymm3", _v("ymm3", "reg")),
        ("regs", "p_xmm0", "p $xmm0", _v("xmm0", "reg")),
        ("regs", "p_xmm1", "p $xmm1", _v("xmm1", "reg")),
        ("regs", "p_xmm2", "p $xmm2", _v("xmm2", "reg")),
        ("regs", "px_xmm0", "p/x $xmm0", _v("xmm0", "reg")),
        ("regs", "pf_xmm0", "p/f $xmm0", _v("xmm0", "reg")),
        ("regs", "p_xmm0_v4_float", "p $xmm0.v4_float", _v("xmm0")),
        ("regs", "p_xmm1_v2_double", "p $xmm1.v2_double", _v("xmm1")),
        ("regs", "p_xmm2_v8_half", "p $xmm2.v8_half", _v("xmm2")),
        ("regs", "px_xmm0_v4_int32", "p/x $xmm0.v4_int32", _v("xmm0", "hex")),
        ("regs", "p_xmm0_v4_int32", "p $xmm0.v4_int32", _v("xmm0", "int")),
        ("regs", "px_xmm0_uint128", "p/x $xmm0.uint128", _v("xmm0", "reg")),
        ("regs", "p_ymm3_v8_float", "p $ymm3.v8_float", _v("ymm3")),
        ("regs", "info_mxcsr", "info registers mxcsr", R("mxcsr holds flags, not a float")),
        ("regs", "info_eflags", "info registers eflags", R("eflags holds flags, not a float")),
        ("regs", "p_mxcsr", "p $mxcsr", R("mxcsr holds flags, not a float")),
        ("regs", "info_st0", "info registers st0",
         R("an x87 register (80 bits): no format here holds it")),
        ("regs", "info_rip", "info registers rip", R("an address, not a float")),
        # a register as one number (uint128, v2_int128: leading zeros dropped) and the
        # integer views as wide as the lanes
        ("regs", "p_xmm0_uint128", "p $xmm0.uint128", _v("xmm0", "reg")),
        ("regs", "pd_xmm0_uint128", "p/d $xmm0.uint128", _v("xmm0", "reg")),
        ("regs", "pt_xmm0_uint128", "p/t $xmm0.uint128", _v("xmm0", "reg")),
        ("regs", "pz_xmm0_uint128", "p/z $xmm0.uint128", _v("xmm0", "reg")),
        ("regs", "px_xmm1_uint128", "p/x $xmm1.uint128", _v("xmm1", "reg")),
        ("regs", "p_xmm1_uint128", "p $xmm1.uint128", _v("xmm1", "reg")),
        ("regs", "px_xmm2_uint128", "p/x $xmm2.uint128", _v("xmm2", "reg")),
        ("regs", "pt_xmm2_uint128", "p/t $xmm2.uint128", _v("xmm2", "reg")),
        ("regs", "px_ymm3_v2_int128", "p/x $ymm3.v2_int128", _v("ymm3", "reg")),
        ("regs", "p_ymm3_v2_int128", "p $ymm3.v2_int128", _v("ymm3", "reg")),
        ("regs", "pf_xmm0_uint128", "p/f $xmm0.uint128",
         R("p/f of a 128-bit integer is an x87 long double: no format here holds it")),
        ("regs", "px_ymm3_v8_int32", "p/x $ymm3.v8_int32", _v("ymm3", "hex")),
        ("regs", "p_ymm3_v8_int32", "p $ymm3.v8_int32", _v("ymm3", "int")),
        ("regs", "px_xmm1_v2_int64", "p/x $xmm1.v2_int64", _v("xmm1", "hex")),
        ("regs", "p_xmm1_v2_int64", "p $xmm1.v2_int64", _v("xmm1", "int")),
        ("regs", "px_xmm2_v8_int16", "p/x $xmm2.v8_int16", _v("xmm2", "hex")),
        ("regs", "p_xmm2_v8_int16", "p $xmm2.v8_int16", _v("xmm2", "int16")),
        ("regs", "px_xmm0_v16_int8", "p/x $xmm0.v16_int8", _v("xmm0", "bytes")),
        ("regs", "px_xmm0_v4_float", "p/x $xmm0.v4_float", _v("xmm0", "hex")),
        ("regs", "p_xmm0_v4_float_1", "p $xmm0.v4_float[1]", _v("farr", "dec", 1, 2)),
        ("regs", "px_xmm0_v4_int32_1", "p/x $xmm0.v4_int32[1]", _v("farr", "hex", 1, 2)),
        ("regs", "p_xmm1_v2_double_0", "p $xmm1.v2_double[0]", _v("darr", "dec", 0, 1)),
        ("regs", "p_ymm3", "p $ymm3", _v("ymm3", "reg")),
        ("regs", "px_ymm3", "p/x $ymm3", _v("ymm3", "reg")),
        ("regs", "px_xmm1", "p/x $xmm1", _v("xmm1", "reg")),
        ("regs", "px_xmm2", "p/x $xmm2", _v("xmm2", "reg")),
        # bfloat16 lanes (xmm4, ymm5): gdb's v8_bfloat16 view prints 4 significant digits
        ("regs", "p_xmm4_v8_bfloat16", "p $xmm4.v8_bfloat16", _v("xmm4")),
        ("regs", "px_xmm4_v8_bfloat16", "p/x $xmm4.v8_bfloat16", _v("xmm4", "hex")),
        ("regs", "p_ymm5_v16_bfloat16", "p $ymm5.v16_bfloat16", _v("ymm5")),
        ("regs", "px_ymm5_v16_bfloat16", "p/x $ymm5.v16_bfloat16", _v("ymm5", "hex")),
        ("regs", "p_xmm4_v8_bfloat16_1", "p $xmm4.v8_bfloat16[1]", _v("bfarr", "dec", 1, 2)),
        ("regs", "p_xmm4_v8_bfloat16_7", "p $xmm4.v8_bfloat16[7]", _v("bfarr", "dec", 7, 8)),
        ("regs", "p_ymm5_v16_bfloat16_10", "p $ymm5.v16_bfloat16[10]",
         _v("bfarr", "dec", 10, 11)),
        ("regs", "px_xmm4_v8_int16", "p/x $xmm4.v8_int16", _v("xmm4", "bits")),
        ("regs", "p_xmm4_v8_half", "p $xmm4.v8_half", _v("xmm4 as f16")),
        ("regs", "p_xmm4", "p $xmm4", _v("xmm4", "reg")),
        ("regs", "px_xmm4", "p/x $xmm4", _v("xmm4", "reg")),
        ("regs", "info_xmm4", "info registers xmm4", _v("xmm4", "reg")),
        ("regs", "p_ymm5", "p $ymm5", _v("ymm5", "reg")),
        # a register whose top 64 bits are zero (movq): its 128-bit views print < 2^64
        ("regs", "p_xmm6", "p $xmm6", _v("xmm6", "reg")),
        ("regs", "p_xmm6_v4_float", "p $xmm6.v4_float", _v("xmm6")),
        # the register as one number below 2^64: the text holds its low 64 bits
        ("regs", "p_xmm6_uint128", "p $xmm6.uint128", _v("xmm6", "low64")),
        ("regs", "px_xmm6_uint128", "p/x $xmm6.uint128", _v("xmm6", "low64")),
        # integer views whose lanes are not as wide as the values in the register
        ("regs", "px_xmm1_v4_int32", "p/x $xmm1.v4_int32", _v("xmm1", "reg")),
        ("regs", "p_xmm1_v4_int32", "p $xmm1.v4_int32", _v("xmm1", "reg")),
        ("regs", "px_xmm0_v2_int64", "p/x $xmm0.v2_int64", _v("xmm0", "reg")),
        ("regs", "p_xmm0_v2_int64", "p $xmm0.v2_int64", _v("xmm0", "reg")),
        ("regs", "px_xmm2_v4_int32", "p/x $xmm2.v4_int32", _v("xmm2", "reg")),
        ("regs", "px_xmm0_v8_int16", "p/x $xmm0.v8_int16", _v("xmm0", "reg")),
        ("regs", "px_ymm3_v4_int64", "p/x $ymm3.v4_int64", _v("ymm3", "reg")),
        ("locals", "x4xw_darr", "x/4xw darr", _v("darr", "reg", 0, 2)),
        ("locals", "x2xg_farr", "x/2xg farr", _v("farr", "reg", 0, 4)),
        ("locals", "x8xh_farr", "x/8xh farr", _v("farr", "reg", 0, 4)),
    ]
    return out


LLDB_VARS = ["farr", "fspec", "darr", "harr", "fone", "fthird", "fdenorm", "fnan", "fneg0",
             "finf", "done", "dthird", "ddenorm", "dnan", "dbig", "hone", "hthird", "hdenorm",
             "hnan", "color", "acc", "vsf", "vdf", "mat", "acc.fade", "color.x", "acc.a1",
             "farr[3]"]


def lldb_cases():
    out = []
    for v in LLDB_VARS:
        out.append(("locals", "p_" + v, f"p {v}", _v(v)))
    for v in ["farr", "darr", "harr", "fthird", "lf", "ld", "lh", "acc", "color", "vsf"]:
        out.append(("locals", "v_" + v.replace(".", "_"), f"frame variable {v}", _v(v)))
    for v in ["farr", "darr", "harr", "fthird", "dthird", "vsf", "acc"]:
        out.append(("locals", "px_" + v, f"p/x {v}", _v(v, "hex")))
    for v in ["farr", "fthird", "darr"]:
        out.append(("locals", "vfx_" + v, f"frame variable -f x {v}", _v(v, "hex")))
    out += [
        ("locals", "target_variable_fone", "target variable fone", _v("fone")),
        ("locals", "pd_fthird", "p/d fthird", _v("fthird", "int")),
        ("locals", "p_uarr", "p uarr", _v("uarr", "int")),
        ("locals", "pf_uarr", "p/f uarr", _v("uarr")),
        ("locals", "p_ldthird", "p ldthird",
         R("an x87 long double (80 bits): no format here holds it")),
        ("locals", "parray_farr", "parray 4 &farr[0]", _v("farr", "dec", 0, 4)),
        ("locals", "parray_darr", "parray 3 &darr[0]", _v("darr", "dec", 0, 3)),
        ("locals", "parray_harr", "parray 4 &harr[0]", _v("harr", "dec", 0, 4)),
        ("locals", "vfx_farr0", "frame variable -f x farr[0]", _v("farr", "hex", 0, 1)),
        ("locals", "mem_default_farr", "memory read &farr", _v("farr", "bytes", 0, 8)),
        ("locals", "mem_c16_farr", "memory read -c 16 &farr", _v("farr", "bytes", 0, 4)),
        ("locals", "mem_y_farr", "memory read -f y -c 16 &farr", _v("farr", "bytes", 0, 4)),
        ("locals", "mem_Y_farr", "memory read -f Y -c 16 &farr", _v("farr", "bytes", 0, 4)),
        ("locals", "mem_f4_farr", "memory read -f f -s 4 -c 8 &farr", _v("farr")),
        ("locals", "mem_f4_fspec", "memory read -f f -s 4 -c 6 &fspec", _v("fspec")),
        ("locals", "mem_x4_farr", "memory read -f x -s 4 -c 8 &farr", _v("farr", "hex")),
        ("locals", "mem_X4_farr", "memory read -f X -s 4 -c 4 &farr", _v("farr", "hex", 0, 4)),
        ("locals", "mem_d4_farr", "memory read -f d -s 4 -c 4 &farr", _v("farr", "int", 0, 4)),
        ("locals", "mem_u4_farr", "memory read -f u -s 4 -c 4 &farr", _v("farr", "int", 0, 4)),
        ("locals", "mem_f8_darr", "memory read -f f -s 8 -c 6 &darr", _v("darr")),
        ("locals", "mem_x8_darr", "memory read -f x -s 8 -c 6 &darr", _v("darr", "hex")),
        ("locals", "mem_f2_harr", "memory read -f f -s 2 -c 8 &harr", _v("harr")),
        ("locals", "mem_x2_harr", "memory read -f x -s 2 -c 8 &harr", _v("harr", "hex")),
        ("locals", "mem_t_float", "memory read -t float -c 4 &farr", _v("farr", "dec", 0, 4)),
        ("locals", "mem_t_double", "memory read -t double -c 2 &darr", _v("darr", "dec", 0, 2)),
        ("locals", "mem_fl32_farr", "memory read -f float32[] -s 16 -c 2 &farr", _v("farr", "dec6")),
        ("locals", "mem_B4_farr", "memory read -f B -s 4 -c 2 &farr",
         R("lldb's B format is boolean: true/false, no value")),
        ("locals", "mem_b4_farr", "memory read -f b -s 4 -c 2 &farr", _v("farr", "bin", 0, 2)),
        # a unit size other than the values' (the lanes re-cut are offered)
        ("locals", "mem_x4_darr", "memory read -f x -s 4 -c 4 &darr", _v("darr", "reg", 0, 2)),
        ("locals", "mem_x8_farr", "memory read -f x -s 8 -c 2 &farr", _v("farr", "reg", 0, 4)),
        ("regs", "reg_u64_xmm0", "register read -f uint64_t[] xmm0", _v("xmm0", "reg")),
        ("regs", "reg_xmm0", "register read xmm0", _v("xmm0", "reg")),
        ("regs", "reg_xmm1", "register read xmm1", _v("xmm1", "reg")),
        ("regs", "reg_xmm2", "register read xmm2", _v("xmm2", "reg")),
        ("regs", "reg_ymm3", "register read ymm3", _v("ymm3", "reg")),
        ("regs", "reg_xmm0_ymm3", "register read xmm0 ymm3", _v("xmm0+ymm3", "reg")),
        ("regs", "reg_x_xmm0", "register read -f x xmm0", _v("xmm0", "reg")),
        ("regs", "reg_X_xmm0", "register read -f X xmm0", _v("xmm0", "reg")),
        ("regs", "reg_f32_xmm0", "register read -f float32[] xmm0", _v("xmm0", "dec6")),
        ("regs", "reg_f64_xmm1", "register read -f float64[] xmm1", _v("xmm1", "dec6")),
        ("regs", "reg_f16_xmm2", "register read -f float16[] xmm2", _v("xmm2", "dec6")),
        ("regs", "reg_f32_ymm3", "register read -f float32[] ymm3", _v("ymm3", "dec6")),
        ("regs", "reg_u32_xmm0", "register read -f uint32_t[] xmm0", _v("xmm0", "int")),
                ("regs", "reg_u64_xmm1", "register read -f uint64_t[] xmm1", _v("xmm1", "int")),
        ("regs", "reg_u16_xmm2", "register read -f uint16_t[] xmm2", _v("xmm2", "int16")),
        ("regs", "reg_y_xmm0", "register read -f y xmm0", _v("xmm0", "reg")),
        ("regs", "reg_Y_xmm0", "register read -f Y xmm0", _v("xmm0", "reg")),
        ("regs", "reg_d_xmm0", "register read -f d xmm0", _v("xmm0", "reg")),
        ("regs", "reg_f_xmm0", "register read -f f xmm0",
         R("lldb's -f f of a 128-bit register is an x87 long double: no format here holds it")),
        ("regs", "reg_mxcsr", "register read mxcsr", R("mxcsr holds flags, not a float")),
        ("regs", "reg_rflags", "register read rflags", R("rflags holds flags, not a float")),
        ("regs", "reg_st0", "register read st0",
         R("an x87 register (80 bits): no format here holds it")),
        ("regs", "reg_rip", "register read rip", R("an address, not a float")),
    ]
    return out


def lldb_ext_cases():
    """lldb over probe_ext.c (clang's ext_vector_type: float4, half4 of __fp16, double2)."""
    return [
        ("locals", "ext_v_f4", "frame variable f4", _v("f4")),
        ("locals", "ext_p_f4", "p f4", _v("f4")),
        ("locals", "ext_v_lf4", "frame variable lf4", _v("f4")),
        ("locals", "ext_p_f2", "p f2", _v("f2")),
        ("locals", "ext_p_d2", "p d2", _v("d2")),
        ("locals", "ext_p_h4", "p h4", _v("h4")),
        ("locals", "ext_v_lh4", "frame variable lh4", _v("h4")),
        ("locals", "ext_p_p4", "p p4", _v("p4")),
        ("locals", "ext_p_i4", "p i4", _v("i4", "int")),
        ("locals", "ext_p_f4arr", "p f4arr", _v("f4arr")),
        ("locals", "ext_px_f4", "p/x f4", _v("f4", "hex")),
        ("locals", "ext_px_h4", "p/x h4", _v("h4", "hex")),
        ("locals", "ext_px_d2", "p/x d2", _v("d2", "hex")),
        # a typedef that names no lane width: the 32-bit chunks are read as f32, the f16
        # lanes offered ("reg": the same bits in other lane widths are readings)
        ("locals", "ext_px_p4", "p/x p4", _v("p4", "reg")),
        ("locals", "ext_px_h4_xy", "p/x h4.xy", _v("h4", "hex", 0, 2)),
        ("locals", "ext_px_f2", "p/x f2", _v("f2", "hex")),
        ("locals", "ext_px_i4", "p/x i4", _v("i4", "hex")),
        ("locals", "ext_p_f4_y", "p f4.y", _v("f4", "dec", 1, 2)),
        ("locals", "ext_p_f4_xy", "p f4.xy", _v("f4", "dec", 0, 2)),
        ("locals", "ext_p_h4_x", "p h4.x", _v("h4", "dec", 0, 1)),
        ("locals", "ext_parray_f4arr", "parray 2 &f4arr[0]", _v("f4arr")),
        ("locals", "ext_parray_f4", "parray 4 (float *)&f4", _v("f4")),
        ("locals", "ext_parray_h4", "parray 1 &h4", _v("h4")),
        ("locals", "ext_mem_f2_h4", "memory read -f f -s 2 -c 4 &h4", _v("h4")),
    ]


def gdb_arm_cases():
    """gdb-multiarch over probe_arm.c under qemu-aarch64 (v0 = farr, v1 = darr, v2 = harr):
    the vector union, its raw-then-natural ``info registers`` line, the scalar views."""
    return [
        ("regs", "arm_p_v0", "p $v0", _v("v0", "reg")),
        ("regs", "arm_px_v0", "p/x $v0", _v("v0", "reg")),
        ("regs", "arm_p_v1", "p $v1", _v("v1", "reg")),
        ("regs", "arm_p_v2", "p $v2", _v("v2", "reg")),
        ("regs", "arm_info_v0", "info registers v0", _v("v0", "reg")),
        ("regs", "arm_info_v1", "info registers v1", _v("v1", "reg")),
        ("regs", "arm_info_v2", "info registers v2", _v("v2", "reg")),
        ("regs", "arm_p_q0", "p $q0", _v("v0", "reg")),
        ("regs", "arm_p_q1", "p $q1", _v("v1", "reg")),
        ("regs", "arm_p_s0", "p $s0", _v("farr", "dec", 0, 1)),
        ("regs", "arm_p_d1", "p $d1", _v("darr", "dec", 0, 1)),
        ("regs", "arm_p_h2", "p $h2", _v("harr", "dec", 0, 1)),
        ("regs", "arm_px_s0", "p/x $s0", _v("farr", "hex", 0, 1)),
        ("regs", "arm_info_s0", "info registers s0", _v("farr", "hex", 0, 1)),
        ("regs", "arm_info_d1", "info registers d1", _v("darr", "hex", 0, 1)),
        ("regs", "arm_info_h2", "info registers h2", _v("harr", "hex", 0, 1)),
        ("regs", "arm_p_v0_s_f", "p $v0.s.f", _v("v0")),
        ("regs", "arm_p_v1_d_f", "p $v1.d.f", _v("v1")),
        ("regs", "arm_p_v2_h_f", "p $v2.h.f", _v("v2")),
        ("regs", "arm_px_v0_s_u", "p/x $v0.s.u", _v("v0", "hex")),
        ("regs", "arm_p_v0_s_u", "p $v0.s.u", _v("v0", "int")),
        ("regs", "arm_p_v0_q_u", "p $v0.q.u", _v("v0", "reg")),
        # v3: bfloat16 lanes (h.bf prints 4 significant digits); v4: the top 64 bits zero
        ("regs", "arm_p_v3", "p $v3", _v("v3", "reg")),
        ("regs", "arm_px_v3", "p/x $v3", _v("v3", "reg")),
        ("regs", "arm_info_v3", "info registers v3", _v("v3", "reg")),
        ("regs", "arm_p_v3_h_bf", "p $v3.h.bf", _v("v3")),
        ("regs", "arm_px_v3_h_bf", "p/x $v3.h.bf", _v("v3", "hex")),
        ("regs", "arm_p_v3_h_u", "p $v3.h.u", _v("v3", "bits")),
        ("regs", "arm_p_h3", "p $h3", _v("bfarr", "bits", 0, 1)),
        ("regs", "arm_p_h3_bf", "p $h3.bf", _v("bfarr", "dec", 0, 1)),
        ("regs", "arm_info_h3", "info registers h3", _v("bfarr", "bits", 0, 1)),
        ("regs", "arm_p_v4", "p $v4", _v("v4", "reg")),
        ("regs", "arm_p_q4", "p $q4", _v("v4", "reg")),
        ("regs", "arm_px_q4", "p/x $q4", _v("v4", "reg")),
        ("regs", "arm_info_q4", "info registers q4", _v("v4", "reg")),
    ]
