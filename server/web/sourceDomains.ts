// The data lists the channel rules read (docs/web-analytics.md): search engines and social sites by
// domain. A name ending in `.*` matches that name under any country top-level domain
// (google.de, google.co.uk); any other name matches itself and its subdomains (m.facebook.com).

export const SEARCH_ENGINES: readonly string[] = [
  'google.*', 'bing.com', 'yahoo.*', 'search.yahoo.com', 'duckduckgo.com', 'yandex.*', 'ya.ru', 'baidu.com', 'ecosia.org',
  'qwant.com', 'startpage.com', 'search.brave.com', 'naver.com', 'seznam.cz', 'so.com', 'sogou.com', 'ask.com', 'aol.com',
  'search.aol.com', 'mail.ru', 'go.mail.ru', 'kagi.com', 'perplexity.ai', 'you.com', 'yep.com', 'mojeek.com', 'swisscows.com',
  'metager.de', 'presearch.com', 'daum.net', 'coccoc.com', 'rambler.ru', 'search.lycos.com', 'dogpile.com', 'webcrawler.com',
  'ekoru.org', 'lilo.org', 'petalsearch.com', 'sm.cn', 'neeva.com', 'onet.pl', 'wp.pl', 'ecosia.com', 'info.com', 'gibiru.com',
];

export const SOCIAL_SITES: readonly string[] = [
  'facebook.com', 'fb.com', 'fb.me', 'l.facebook.com', 'lm.facebook.com', 'messenger.com', 'instagram.com', 'l.instagram.com',
  'twitter.com', 't.co', 'x.com', 'linkedin.com', 'lnkd.in', 'reddit.com', 'old.reddit.com', 'redd.it', 'pinterest.*',
  'pin.it', 'youtube.com', 'youtu.be', 'tiktok.com', 'snapchat.com', 'tumblr.com', 'vk.com', 'ok.ru', 'weibo.com',
  'news.ycombinator.com', 'threads.net', 'bsky.app', 'mastodon.social', 'discord.com', 'discordapp.com', 'telegram.org',
  't.me', 'web.telegram.org', 'whatsapp.com', 'wa.me', 'quora.com', 'medium.com', 'xing.com', 'stackoverflow.com',
  'stackexchange.com', 'producthunt.com', 'dev.to', 'slack.com', 'twitch.tv', 'vimeo.com', 'flickr.com', 'line.me',
  'kakao.com', 'qzone.qq.com', 'douban.com', 'habr.com', 'lobste.rs', 'digg.com', 'meetup.com', 'nextdoor.com',
];

/** Web mail: a click from a message in one of these is email. */
export const EMAIL_SITES: readonly string[] = [
  'mail.google.com', 'inbox.google.com', 'mail.yahoo.com', 'outlook.live.com', 'outlook.office.com', 'outlook.office365.com', 'mail.yandex.ru',
  'e.mail.ru', 'mail.proton.me', 'mail.aol.com', 'mail.zoho.com', 'app.fastmail.com', 'webmail.gmx.net', 'web.de', 'mail.ukr.net',
];

/** Page-URL `utm_medium` values naming a channel (compared lowercased). */
export const PAID_MEDIUMS: readonly string[] = ['cpc', 'ppc', 'paid', 'paidsearch', 'paid_search', 'paid-search', 'sem', 'cpm', 'display', 'retargeting'];
export const EMAIL_MEDIUMS: readonly string[] = ['email', 'e-mail', 'e_mail', 'newsletter', 'mail'];
export const SOCIAL_MEDIUMS: readonly string[] = ['social', 'social-media', 'social_media', 'sm', 'social-network', 'social_network'];
export const ORGANIC_MEDIUMS: readonly string[] = ['organic', 'seo'];
