/* tests/test_csv_out.c: CSV tables quote what needs quoting. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "reports/csv_out.h"
#include "tests/helpers.h"

Test(csv_out, quoting_and_numbers)
{
    char *dir = test_tmpdir();
    char *path = test_path(dir, "t.csv");
    ws_error err;
    csv_table *t = csv_table_open(path, (const char *const[]){"name", "n", "u", "addr"}, 4, &err);
    cr_assert_not_null(t);
    csv_row_str(t, "mult_gpu<float>(a, b)");
    csv_row_u64(t, 42);
    csv_row_double(t, 0.5);
    csv_row_hex(t, 0x7f00);
    csv_row_end(t);
    csv_row_str(t, "say \"hi\"");
    csv_row_u64(t, 0);
    csv_row_double(t, NAN);
    csv_row_str(t, NULL);
    csv_row_end(t);
    cr_assert_null(test_read_file(path, NULL), "nothing visible before commit");
    cr_assert_eq(csv_table_commit(t, &err), 0);
    char *text = test_read_file(path, NULL);
    cr_assert_str_eq(text, "name,n,u,addr\n"
                           "\"mult_gpu<float>(a, b)\",42,0.5,0x7f00\n"
                           "\"say \"\"hi\"\"\",0,,\n");
    free(text);
    free(path);
    test_tmpdir_cleanup(dir);
}

/* Trace text that would start a spreadsheet formula is neutralised with a
 * leading apostrophe; numbers, negative ones too, are not touched. */
Test(csv_out, formula_injection_is_neutralised)
{
    char *dir = test_tmpdir();
    char *path = test_path(dir, "t.csv");
    ws_error err;
    csv_table *t = csv_table_open(path, (const char *const[]){"text", "n"}, 2, &err);
    cr_assert_not_null(t);
    const char *texts[] = {"=HYPERLINK(\"http://x\",\"y\")", "+1+2", "-2+3", "@SUM(A1)",
                           "\tcmd", "kernel=ok"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        csv_row_str(t, texts[i]);
        csv_row_i64(t, -3);
        csv_row_end(t);
    }
    cr_assert_eq(csv_table_commit(t, &err), 0);
    char *text = test_read_file(path, NULL);
    cr_assert_str_eq(text, "text,n\n"
                           "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",-3\n"
                           "'+1+2,-3\n"
                           "'-2+3,-3\n"
                           "'@SUM(A1),-3\n"
                           "'\tcmd,-3\n"
                           "kernel=ok,-3\n");
    free(text);
    free(path);
    test_tmpdir_cleanup(dir);
}

/* Every failure names the file, at open and at commit, so a command can
 * report err as it is, on one line. */
Test(csv_out, failures_name_the_path)
{
    ws_error err;
    const char *const header[] = {"a"};
    cr_assert_null(csv_table_open("/nonexistent/dir/t.csv", header, 1, &err));
    cr_assert(strncmp(err.msg, "/nonexistent/dir/t.csv: ", 24) == 0, "%s", err.msg);
    char *dir = test_tmpdir();
    cr_assert_null(csv_table_open_in(dir, "", header, 1, &err), "a directory is no table");
    cr_assert(strncmp(err.msg, dir, strlen(dir)) == 0, "%s", err.msg);
    test_tmpdir_cleanup(dir);
}
