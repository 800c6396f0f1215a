/* test_common.c - number parsing and key=value lists (src/core/common.c). */
#include "hg_common.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

static void test_numbers(void)
{
    double v = 0;
    hg_err e = {0};
    CHECK(hg_parse_double("1.5e-3", "x", &v, &e) == HG_OK && v == 1.5e-3);
    CHECK(hg_parse_double(" -2 ", "x", &v, &e) == HG_OK && v == -2.0);
    const char *bad[] = {"1e", "nan", "inf", "-inf", "", " ", "1,5", "abc",
                         "1.5x", "1e999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = 42.0;
        int st = hg_parse_double(bad[i], "field nu", &v, &e);
        CHECK(st == HG_EPARSE && v == 42.0 && e.status == HG_EPARSE);
        CHECK(strstr(e.msg, "field nu") != NULL);
        if (*bad[i] && *bad[i] != ' ')
            CHECK(strstr(e.msg, bad[i]) != NULL);
    }
    CHECK(hg_parse_double(NULL, "x", &v, NULL) == HG_EPARSE);
    long l = 0;
    CHECK(hg_parse_long("12", "L", 1, 100, &l, &e) == HG_OK && l == 12);
    CHECK(hg_parse_long("0", "L", 1, 100, &l, &e) == HG_EINVAL &&
          strstr(e.msg, "L") && strstr(e.msg, "0"));
    CHECK(hg_parse_long("1.5", "L", 1, 100, &l, &e) == HG_EPARSE &&
          strstr(e.msg, "1.5"));
    CHECK(hg_parse_long("", "L", 1, 100, &l, &e) == HG_EPARSE);
    CHECK(hg_parse_long("  ", "L", 1, 100, &l, &e) == HG_EPARSE);
    CHECK(hg_parse_long("99999999999999999999", "L", 1, 100, &l, &e) ==
          HG_EINVAL);
    CHECK(strcmp(hg_strerror(HG_OK), "success") == 0);
    CHECK(strcmp(hg_strerror(12345), "unknown error") == 0);
    CHECK(hg_fail(NULL, HG_EIO, "x") == HG_EIO);

    /* shortest round trip, positional for whole numbers below 1e16 */
    static const struct {
        double v;
        const char *txt;
    } fmt[] = {{40.0, "40"},       {0.6, "0.6"},       {123000.0, "123000"},
               {1e15, "1000000000000000"}, {1e16, "1e+16"}, {1e-5, "1e-05"},
               {0.0001, "0.0001"}, {-2500.0, "-2500"}, {2.5e300, "2.5e+300"},
               {1.0 / 3.0, "0.3333333333333333"}};
    char buf[HG_NUMLEN];
    for (size_t i = 0; i < sizeof fmt / sizeof fmt[0]; i++) {
        hg_fmt_double(buf, fmt[i].v);
        CHECK(strcmp(buf, fmt[i].txt) == 0);
        CHECK(strtod(buf, NULL) == fmt[i].v);
    }
}

static void test_kv(void)
{
    hg_kv kv = {0};
    hg_err e = {0};
    CHECK(hg_kv_parse(" alpha = -3 , omega=100", &kv, &e) == HG_OK);
    CHECK(kv.n == 2);
    CHECK(hg_kv_get(&kv, "alpha") &&
          strcmp(hg_kv_get(&kv, "alpha"), "-3") == 0);
    CHECK(hg_kv_get(&kv, "omega") &&
          strcmp(hg_kv_get(&kv, "omega"), "100") == 0);
    CHECK(hg_kv_get(&kv, "beta") == NULL);
    double v = 0;
    int present = -1;
    CHECK(hg_kv_double(&kv, "alpha", 1, &v, NULL, "powerlaw", &e) == HG_OK &&
          v == -3.0);
    CHECK(hg_kv_double(&kv, "beta", 0, &v, &present, "powerlaw", &e) ==
              HG_OK && present == 0);
    CHECK(hg_kv_double(&kv, "beta", 1, &v, NULL, "powerlaw", &e) ==
              HG_EINVAL && strstr(e.msg, "beta") && strstr(e.msg, "powerlaw"));
    const char *known[] = {"alpha", NULL};
    CHECK(hg_kv_check_known(&kv, known, "powerlaw", &e) == HG_EUNKNOWN &&
          strstr(e.msg, "omega") && strstr(e.msg, "alpha"));
    const char *known2[] = {"alpha", "omega", NULL};
    CHECK(hg_kv_check_known(&kv, known2, "powerlaw", &e) == HG_OK);
    /* duplicates, by parse and by add */
    CHECK(hg_kv_parse("alpha=1", &kv, &e) == HG_EPARSE &&
          strstr(e.msg, "alpha") && strstr(e.msg, "twice"));
    CHECK(hg_kv_add(&kv, "omega", "3", &e) == HG_EPARSE &&
          strstr(e.msg, "omega"));
    CHECK(kv.n == 2);
    CHECK(hg_kv_add(&kv, " K ", " 0.2 ", &e) == HG_OK && kv.n == 3 &&
          strcmp(hg_kv_get(&kv, "K"), "0.2") == 0);
    hg_kv_clear(&kv);
    CHECK(kv.n == 0 && kv.items == NULL);
    hg_kv_clear(NULL);
    /* malformed items name the item */
    CHECK(hg_kv_parse("a=1,b", &kv, &e) == HG_EPARSE && strstr(e.msg, "'b'"));
    hg_kv_clear(&kv);
    CHECK(hg_kv_parse("a=1,=2", &kv, &e) == HG_EPARSE &&
          strstr(e.msg, "key"));
    hg_kv_clear(&kv);
    CHECK(hg_kv_parse("a=", &kv, &e) == HG_EPARSE && strstr(e.msg, "value"));
    hg_kv_clear(&kv);
    CHECK(hg_kv_parse("a=1,,b=2", &kv, &e) == HG_EPARSE);
    hg_kv_clear(&kv);
    CHECK(hg_kv_parse("", &kv, &e) == HG_OK && kv.n == 0);
    CHECK(hg_kv_parse("x=1=2", &kv, &e) == HG_OK &&
          strcmp(hg_kv_get(&kv, "x"), "1=2") == 0);
    CHECK(hg_kv_double(&kv, "x", 1, &v, NULL, "fam", &e) == HG_EPARSE &&
          strstr(e.msg, "fam x") && strstr(e.msg, "1=2"));
    hg_kv_clear(&kv);
}

int main(void)
{
    test_numbers();
    test_kv();
    return hg_test_summary("test_common");
}
