# scripts/nvbit-decls-check.awk: reads warpscope's declarations of the NVBit
# API (collectors/nvbit/nvbit_decls/) and writes a C++ file that compiles,
# after NVBit's own headers, only if every declaration agrees with them:
#   function   decltype(&f) is the declared type (return, parameters);
#   method     decltype(&C::m) is the declared member-function type;
#   field      same offset and type as in a copy of the declared struct;
#   enumerator same value, and of the declared enum type.
# The declarations are read as text and their types resolved in NVBit's
# scope, so no list of names is kept here.  Each check is one line ending in
# "// FILE:LINE NAME", for scripts/nvbit-check.sh to name what differs.
#
# It reads the subset of C++ those files are written in: namespaces,
# extern "C" blocks, classes and structs (also typedef'd) with fields and
# methods, enum class and typedef'd enums with integer values, functions.
# Anything else stops it with an error, so no declaration is skipped.

function fail(msg) {
    printf "nvbit-decls-check: %s: %s\n", where, msg > "/dev/stderr"
    failed = 1
    exit 1
}
function trim(s) { gsub(/^[ \t\n]+|[ \t\n]+$/, "", s); gsub(/[ \t\n]+/, " ", s); return s }

# The enclosing namespaces as "A::B", and the innermost class or struct.
function ns_path(   i, p) {
    p = ""
    for (i = 1; i <= depth; i++)
        if (kind[i] == "ns") p = p (p == "" ? "" : "::") name[i]
    return p
}
function qualify(n,   p) { p = ns_path(); return p == "" ? n : p "::" n }
function in_ns(text,   p) { p = ns_path(); return p == "" ? text : "namespace " p " { " text " }" }
function emit(check, what) { print in_ns(check) "  // " where " " what }

# "RET NAME(PARAMS) QUALS" -> the type of &NAME: "RET (SCOPE*)(PARAMS) QUALS",
# without default arguments (not part of a type).  Sets fn_name.
function pointer_type(decl, scope,   at) {
    sub(/^((extern "C"|static|inline|__device__|__host__|__forceinline__) )+/, "", decl)
    if (!match(decl, /[A-Za-z_][A-Za-z0-9_]* ?\(/)) fail("no function name in '" decl "'")
    fn_name = substr(decl, RSTART, RLENGTH)
    sub(/ ?\($/, "", fn_name)
    at = RSTART + RLENGTH - 1
    rest = substr(decl, at)
    gsub(/ ?=[^,)]*/, "", rest)
    return substr(decl, 1, RSTART - 1) "(" scope "*)" rest
}

# A statement of the enclosing class or struct: a method or fields.
function member(text,   type, n, parts, i, f) {
    if (index(text, "(")) {
        if (kind[depth] == "tstruct") fail("a method in a typedef'd struct")
        type = pointer_type(text, name[depth] "::")
        emit("static_assert(std::is_same<decltype(&" name[depth] "::" fn_name "), " type ">::value, \"" \
             name[depth] "::" fn_name "\");", name[depth] "::" fn_name)
        return
    }
    fields[depth] = fields[depth] text "; "
    n = split(text, parts, ",")
    for (i = 1; i <= n; i++) {
        f = parts[i]
        sub(/\[.*$/, "", f)
        if (!match(f, /[A-Za-z_][A-Za-z0-9_]*$/)) fail("no field name in '" text "'")
        field_names[depth] = field_names[depth] " " substr(f, RSTART, RLENGTH) "@" where
    }
}

# A closed struct: a copy of its fields, in namespace ws_decl, beside the
# release's, and each field's offset and type compared.
function struct_checks(sname, d,   copy, n, list, i, f, at) {
    if (fields[d] == "") return
    copy = "namespace ws_decl { struct " sname " { " fields[d] "}; }"
    print in_ns(copy)
    n = split(field_names[d], list, " ")
    for (i = 1; i <= n; i++) {
        split(list[i], f, "@")
        where = f[2]
        emit("static_assert(offsetof(" sname ", " f[1] ") == offsetof(ws_decl::" sname ", " f[1] ") && " \
             "std::is_same<decltype(" sname "::" f[1] "), decltype(ws_decl::" sname "::" f[1] ")>::value, \"" \
             sname "::" f[1] "\");", sname "::" f[1])
    }
}

# Enumerators "A, B = 7, C" of enum `type`; scoped ones are named type::X.
# feed() noted where each one starts in item_where[].
function enum_checks(list, type, scoped,   n, items, i, k, e, v, value, q) {
    value = -1
    n = split(list, items, ",")
    for (i = 1; i <= n; i++) {
        e = trim(items[i])
        if (e == "") continue
        where = item_where[++k]
        if (index(e, "=")) {
            v = trim(substr(e, index(e, "=") + 1))
            e = trim(substr(e, 1, index(e, "=") - 1))
            if (v !~ /^-?[0-9]+$/) fail("enumerator " e ": only integer values are read, got '" v "'")
            value = v + 0
        } else {
            value++
        }
        q = scoped ? type "::" e : e
        emit("static_assert((long long)" q " == " value " && std::is_same<decltype(" q "), " type ">::value, \"" \
             q " = " value "\");", q)
    }
}

function push(k, n) {
    depth++; kind[depth] = k; name[depth] = n; fields[depth] = field_names[depth] = ""
    enum_items = item_open = 0
}

function open_block(text,   w) {
    if (text ~ /^namespace [A-Za-z_][A-Za-z0-9_]*$/) { split(text, w, " "); push("ns", w[2]) }
    else if (text == "extern \"C\"") push("extern", "")
    else if (text ~ /^(class|struct) [A-Za-z_][A-Za-z0-9_]*$/) { split(text, w, " "); push("class", w[2]) }
    else if (text == "typedef struct") push("tstruct", "")
    else if (text ~ /^enum class [A-Za-z_][A-Za-z0-9_]*$/) { split(text, w, " "); push("enum", w[3]) }
    else if (text == "typedef enum") push("tenum", "")
    else fail("cannot read '" text " {'")
}

function close_block(text) {
    if (kind[depth] == "enum") enum_checks(text, name[depth], 1)
    else if (kind[depth] == "tenum") enum_list = text
    else if (text != "") fail("'" text "' before '}'")
    if (kind[depth] == "class") struct_checks(name[depth], depth)
    closed_kind = kind[depth]
    closed_depth = depth
    depth--
    # a class or enum ends with "};", a typedef with "} NAME;"
    awaiting = closed_kind ~ /^(class|enum|tstruct|tenum)$/
}

function statement(text) {
    if (awaiting) {
        awaiting = 0
        if (closed_kind == "tenum") { if (text == "") fail("typedef enum without a name"); enum_checks(enum_list, text, 0) }
        else if (closed_kind == "tstruct") {
            if (text == "") fail("typedef struct without a name")
            struct_checks(text, closed_depth)
        } else if (text != "") fail("'" text "' after '}'")
        return
    }
    if (text == "") return
    if (kind[depth] == "class" || kind[depth] == "tstruct") { member(text); return }
    if (kind[depth] == "enum" || kind[depth] == "tenum") fail("';' inside an enum")
    if (!index(text, "(")) fail("cannot read '" text ";'")
    type = pointer_type(text, "")
    emit("static_assert(std::is_same<decltype(&" qualify(fn_name) "), " type ">::value, \"" fn_name "\");", fn_name)
}

# Characters in, statements out: comments and preprocessor lines dropped,
# each statement tagged with the file and line where it starts.
function feed(line,   i, c) {
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (in_comment) { if (substr(line, i, 2) == "*/") { in_comment = 0; i++ } continue }
        if (substr(line, i, 2) == "/*") { in_comment = 1; i++; continue }
        if (substr(line, i, 2) == "//") break
        if (c == "{" || c == "}" || c == ";") {
            text = trim(buf)
            where = start
            if (c == "{") open_block(text)
            else if (c == "}") { if (depth == 0) fail("unbalanced '}'"); close_block(text) }
            else statement(text)
            buf = ""
            continue
        }
        if (c == ":" && trim(buf) ~ /^(public|private|protected)$/ && substr(line, i + 1, 1) != ":") {
            buf = ""
            continue
        }
        if (trim(buf) == "" && c !~ /[ \t]/) start = FILENAME ":" FNR
        if (kind[depth] ~ /enum$/ && c !~ /[ \t,]/ && !item_open) {
            item_where[++enum_items] = FILENAME ":" FNR
            item_open = 1
        }
        if (c == ",") item_open = 0
        buf = buf c
    }
    buf = buf " "
}

BEGIN {
    print "// Generated by scripts/nvbit-decls-check.awk from warpscope's NVBit declarations."
    print "#include <cstddef>"
    print "#include <type_traits>"
}
/^[ \t]*#/ && !in_comment { next }
{ feed($0) }
END {
    if (failed) exit 1
    where = FILENAME
    if (depth != 0) fail("a block is not closed")
    if (trim(buf) != "") fail("'" trim(buf) "' is not a statement")
}
