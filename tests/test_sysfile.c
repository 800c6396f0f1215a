/* test_sysfile.c - system description files: good files and every
 * rejection. */
#include "hg_sysfile.h"
#include "hgridopt.h"
#include "testutil.h"

#include <string.h>

static void test_good(void)
{
    hg_sysfile s;
    hg_err e = {0};
    const char *text =
        "{\"schema\": \"hgridopt.system/1\", \"name\": \"x\", \"dim\": 2,"
        " \"nu\": 0.4, \"K\": 0.3, \"length_unit\": \"mm\", \"particles\": 1000,"
        " \"distribution\": {\"family\": \"powerlaw\", \"alpha\": -3,"
        " \"omega\": 20}}";
    CHECK(hg_sysfile_parse(text, "t.json", "/data", &s, &e) == HG_OK);
    CHECK(s.has_dim && s.dim == 2);
    CHECK(s.has_nu && s.nu == 0.4);
    CHECK(s.has_K && s.K == 0.3);
    CHECK(s.has_particles && s.particles == 1000);
    CHECK(s.family && strcmp(s.family, "powerlaw") == 0);
    CHECK(strcmp(hg_kv_get(&s.params, "alpha"), "-3") == 0);
    CHECK(strcmp(s.base_dir, "/data") == 0);
    CHECK(strcmp(s.length_unit, "mm") == 0);
    hg_psd_ctx ctx = {2, s.base_dir};
    hg_psd *p = NULL;
    CHECK(hg_psd_create(s.family, &s.params, &ctx, &p, &e) == HG_OK);
    CHECK(p && hg_psd_rmax(p) == 20.0);
    hg_psd_free(p);
    hg_sysfile_clear(&s);

    CHECK(hg_sysfile_parse("{\"distribution\": \"mono:r=2\", \"K\": \"auto\"}",
                           "t", NULL, &s, &e) == HG_OK);
    CHECK(s.K_auto == 1 && !s.has_K && !s.has_dim);
    CHECK(strcmp(s.family, "mono") == 0);
    CHECK(strcmp(hg_kv_get(&s.params, "r"), "2") == 0);
    hg_sysfile_clear(&s);

    /* lists become ';'-separated values */
    CHECK(hg_sysfile_parse("{\"distribution\": {\"family\": \"discrete\", "
                           "\"r\": [1, 2.5], \"frac\": [0.7, 0.3]}}",
                           "t", NULL, &s, &e) == HG_OK);
    CHECK(strcmp(hg_kv_get(&s.params, "r"), "1;2.5") == 0);
    hg_sysfile_clear(&s);
}

static void reject(const char *text, int status, const char *needle)
{
    hg_sysfile s;
    hg_err e = {0};
    int st = hg_sysfile_parse(text, "f.json", NULL, &s, &e);
    CHECK(st == status);
    if (!strstr(e.msg, needle)) {
        fprintf(stderr, "message '%s' lacks '%s'\n", e.msg, needle);
        CHECK(0);
    }
}

static void test_rejections(void)
{
    reject("{\"dim\": 3,", HG_EPARSE, "f.json:1: malformed JSON");
    reject("[1, 2]", HG_EPARSE, "must be a JSON object");
    reject("{\"dim\": 4}", HG_EINVAL, "\"dim\": 4 is not 2 or 3");
    reject("{\"nu\": 1.2}", HG_EINVAL, "\"nu\": 1.2 is outside (0, 1)");
    reject("{\"nu\": \"x\"}", HG_EPARSE, "\"nu\" must be a number");
    reject("{\"K\": -1}", HG_EINVAL, "\"K\": -1 must be > 0");
    reject("{\"particles\": 2.5}", HG_EINVAL, "\"particles\": 2.5");
    reject("{\"foo\": 1}", HG_EUNKNOWN, "unknown key \"foo\"");
    reject("{\"schema\": \"other/2\"}", HG_EPARSE, "\"schema\" must be");
    reject("{\"distribution\": 3}", HG_EPARSE, "must be an object or");
    reject("{\"distribution\": {\"alpha\": 1}}", HG_EPARSE,
           "has no \"family\"");
    reject("{\"distribution\": {\"family\": \"powerlaw\", \"x\": true}}",
           HG_EPARSE, "\"distribution.x\" must be");
    reject("{\"distribution\": \"powerlaw:alpha\"}", HG_EPARSE,
           "not of the form key=value");
    /* issue 12 item 14: duplicate keys and text after the document */
    reject("{\"nu\": 0.3, \"dim\": 3, \"nu\": 0.5}", HG_EPARSE,
           "f.json: key \"nu\" is given twice");
    reject("{\"distribution\": \"mono:r=1\", \"distribution\": "
           "\"mono:r=2\"}",
           HG_EPARSE, "key \"distribution\" is given twice");
    reject("{\"distribution\": {\"family\": \"powerlaw\", \"alpha\": -3, "
           "\"omega\": 10, \"alpha\": -2}}",
           HG_EPARSE, "\"distribution.alpha\" is given twice");
    reject("{\"distribution\": {\"family\": \"powerlaw\", \"family\": "
           "\"mono\", \"r\": 1}}",
           HG_EPARSE, "\"distribution.family\" is given twice");
    reject("{\"dim\": 3} garbage", HG_EPARSE,
           "f.json:1: text after the JSON document (byte offset 11)");
    reject("{\"dim\": 3}\n\n{\"dim\": 2}\n", HG_EPARSE,
           "f.json:3: text after the JSON document (byte offset 12)");

    hg_sysfile s;
    hg_err e = {0};
    CHECK(hg_sysfile_parse("{\"dim\": 3}\n \t\r\n", "f.json", NULL, &s,
                           &e) == HG_OK);
    hg_sysfile_clear(&s);
    CHECK(hg_sysfile_load("/nonexistent/sys.json", &s, &e) == HG_EIO);
    CHECK(strstr(e.msg, "/nonexistent/sys.json: cannot open") != NULL);
}

int main(void)
{
    test_good();
    test_rejections();
    return hg_test_summary("test_sysfile");
}
