// Public suffixes of more than one label under which companies register their names, taken from the
// ICANN section of the Public Suffix List (https://publicsuffix.org/list/public_suffix_list.dat,
// Mozilla Foundation, MPL-2.0). Only what company email uses; every other top-level domain counts as
// a one-label suffix. Wildcard and exception rules and the private section are left out on purpose.

export const MULTI_LABEL_PUBLIC_SUFFIXES: readonly string[] = [
  // United Kingdom
  'co.uk', 'org.uk', 'me.uk', 'ltd.uk', 'plc.uk', 'net.uk', 'ac.uk', 'gov.uk', 'sch.uk', 'nhs.uk', 'police.uk',
  // Australia, New Zealand
  'com.au', 'net.au', 'org.au', 'edu.au', 'gov.au', 'asn.au', 'id.au',
  'co.nz', 'net.nz', 'org.nz', 'ac.nz', 'govt.nz', 'school.nz', 'geek.nz', 'gen.nz', 'kiwi.nz', 'maori.nz',
  // Asia
  'co.jp', 'ne.jp', 'or.jp', 'ac.jp', 'ad.jp', 'ed.jp', 'go.jp', 'gr.jp', 'lg.jp',
  'co.kr', 'ne.kr', 'or.kr', 'ac.kr', 'go.kr', 're.kr', 'pe.kr',
  'com.cn', 'net.cn', 'org.cn', 'gov.cn', 'edu.cn', 'ac.cn',
  'com.hk', 'net.hk', 'org.hk', 'edu.hk', 'gov.hk', 'idv.hk',
  'com.tw', 'net.tw', 'org.tw', 'edu.tw', 'gov.tw', 'idv.tw',
  'com.sg', 'net.sg', 'org.sg', 'edu.sg', 'gov.sg', 'per.sg',
  'com.my', 'net.my', 'org.my', 'edu.my', 'gov.my', 'name.my',
  'co.id', 'or.id', 'web.id', 'ac.id', 'go.id', 'my.id', 'net.id', 'sch.id',
  'co.th', 'in.th', 'or.th', 'ac.th', 'go.th', 'net.th',
  'com.ph', 'net.ph', 'org.ph', 'edu.ph', 'gov.ph',
  'com.vn', 'net.vn', 'org.vn', 'edu.vn', 'gov.vn',
  'co.in', 'net.in', 'org.in', 'firm.in', 'gen.in', 'ind.in', 'ac.in', 'edu.in', 'gov.in', 'res.in',
  'com.pk', 'net.pk', 'org.pk', 'edu.pk', 'gov.pk',
  'com.bd', 'com.np', 'com.lk',
  // Middle East and Africa
  'co.il', 'org.il', 'net.il', 'ac.il', 'gov.il', 'muni.il',
  'com.tr', 'net.tr', 'org.tr', 'gen.tr', 'biz.tr', 'info.tr', 'edu.tr', 'gov.tr', 'web.tr',
  'com.sa', 'net.sa', 'org.sa', 'edu.sa', 'gov.sa',
  'com.eg', 'net.eg', 'org.eg', 'edu.eg', 'gov.eg',
  'co.za', 'org.za', 'net.za', 'web.za', 'ac.za', 'gov.za',
  'com.ng', 'org.ng', 'net.ng', 'edu.ng', 'gov.ng',
  'co.ke', 'or.ke', 'ne.ke', 'ac.ke', 'go.ke',
  // The Americas
  'com.br', 'net.br', 'org.br', 'edu.br', 'gov.br', 'art.br', 'eng.br', 'ind.br', 'inf.br',
  'com.mx', 'net.mx', 'org.mx', 'edu.mx', 'gob.mx',
  'com.ar', 'net.ar', 'org.ar', 'edu.ar', 'gob.ar', 'int.ar',
  'com.co', 'net.co', 'org.co', 'edu.co', 'gov.co', 'nom.co',
  'com.pe', 'net.pe', 'org.pe', 'edu.pe', 'gob.pe',
  'com.ve', 'net.ve', 'org.ve', 'co.ve',
  'com.uy', 'com.ec', 'com.bo', 'com.py', 'co.cr', 'com.do', 'com.gt', 'com.pa', 'com.sv',
  // Europe
  'co.at', 'or.at', 'ac.at', 'gv.at',
  'com.pl', 'net.pl', 'org.pl', 'edu.pl', 'gov.pl', 'biz.pl', 'info.pl',
  'com.es', 'org.es', 'nom.es', 'gob.es', 'edu.es',
  'com.pt', 'org.pt', 'edu.pt', 'gov.pt',
  'com.gr', 'net.gr', 'org.gr', 'edu.gr', 'gov.gr',
  'asso.fr', 'com.fr', 'gouv.fr', 'nom.fr',
  'co.hu', 'org.hu', 'info.hu',
  'com.ua', 'net.ua', 'org.ua', 'in.ua', 'edu.ua', 'gov.ua',
  'com.cy', 'com.mt', 'co.me', 'co.rs', 'co.ba',
];
